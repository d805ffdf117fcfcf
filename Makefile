# odds: build, install and package. Thin on purpose: SwiftPM builds, install(1) installs.
#
#   make                     release build (Swift runtime linked statically)
#   make install             into $(DESTDIR)$(PREFIX): bin/odds, the man page, bash/zsh/fish completions
#   make uninstall           removes exactly those
#   make dist                $(DISTDIR)/odds-VERSION-linux-ARCH.tar.gz and SHA256SUMS
#
# The binary is installed stripped (install -s).
# Variables: PREFIX (/usr/local), DESTDIR (empty), SCRATCH (SwiftPM's scratch path, .build), DISTDIR (dist).

PREFIX  ?= /usr/local
DESTDIR ?=
SCRATCH ?= .build
DISTDIR ?= dist

SWIFT   ?= swift
INSTALL ?= install

# The one place the version is written is OddsVersion.current.
VERSION := $(shell sed -n 's/.*static let current = "\(.*\)".*/\1/p' Sources/OddsTransport/Version.swift)
ARCH    := $(shell uname -m)
COMMIT  := $(shell git rev-parse --short=12 HEAD 2>/dev/null)$(shell git rev-parse HEAD >/dev/null 2>&1 && { git diff --quiet HEAD -- 2>/dev/null || echo -dirty; })
# SOURCE_DATE_EPOCH (reproducible builds) fixes the build date.
DATE    := $(shell date -u -d @$${SOURCE_DATE_EPOCH:-$$(date +%s)} +%Y-%m-%d)
SWIFT_VERSION := $(shell $(SWIFT) --version 2>/dev/null | sed -n 's/.*Swift version \([^ ]*\).*/\1/p' | head -n 1)

BUILD_FLAGS := -c release --product odds --static-swift-stdlib --scratch-path "$(SCRATCH)" \
	-Xcc '-DODDS_COMMIT="$(COMMIT)"' -Xcc '-DODDS_BUILD_DATE="$(DATE)"' -Xcc '-DODDS_SWIFT_VERSION="$(SWIFT_VERSION)"'

BINDIR  := $(DESTDIR)$(PREFIX)/bin
MANDIR  := $(DESTDIR)$(PREFIX)/share/man/man1
BASHDIR := $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSHDIR  := $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISHDIR := $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d

DISTNAME := odds-$(VERSION)-linux-$(ARCH)

.PHONY: all build install uninstall dist clean

all: build

build:
	$(SWIFT) build $(BUILD_FLAGS)

install: build
	$(INSTALL) -d "$(BINDIR)" "$(MANDIR)" "$(BASHDIR)" "$(ZSHDIR)" "$(FISHDIR)"
	$(INSTALL) -s -m 755 "$$($(SWIFT) build $(BUILD_FLAGS) --show-bin-path)/odds" "$(BINDIR)/odds"
	$(INSTALL) -m 644 Man/odds.1 "$(MANDIR)/odds.1"
	$(INSTALL) -m 644 Completions/odds.bash "$(BASHDIR)/odds"
	$(INSTALL) -m 644 Completions/_odds "$(ZSHDIR)/_odds"
	$(INSTALL) -m 644 Completions/odds.fish "$(FISHDIR)/odds.fish"

uninstall:
	rm -f "$(BINDIR)/odds" "$(MANDIR)/odds.1" "$(BASHDIR)/odds" "$(ZSHDIR)/_odds" "$(FISHDIR)/odds.fish"

# One folder that runs from where it is unpacked: odds, odds.1, completions/, README.md, LICENSE.
dist: build
	rm -rf "$(DISTDIR)/$(DISTNAME)"
	$(INSTALL) -d "$(DISTDIR)/$(DISTNAME)/completions"
	$(INSTALL) -s -m 755 "$$($(SWIFT) build $(BUILD_FLAGS) --show-bin-path)/odds" "$(DISTDIR)/$(DISTNAME)/odds"
	$(INSTALL) -m 644 Man/odds.1 README.md LICENSE CHANGELOG.md "$(DISTDIR)/$(DISTNAME)/"
	$(INSTALL) -m 644 Completions/odds.bash Completions/_odds Completions/odds.fish "$(DISTDIR)/$(DISTNAME)/completions/"
	tar -C "$(DISTDIR)" -czf "$(DISTDIR)/$(DISTNAME).tar.gz" "$(DISTNAME)"
	rm -rf "$(DISTDIR)/$(DISTNAME)"
	cd "$(DISTDIR)" && sha256sum "$(DISTNAME).tar.gz" > SHA256SUMS

clean:
	rm -rf "$(DISTDIR)"
	$(SWIFT) package --scratch-path "$(SCRATCH)" clean
