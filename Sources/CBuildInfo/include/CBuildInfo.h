#ifndef ODDS_C_BUILD_INFO_H
#define ODDS_C_BUILD_INFO_H

/// What `make` knows of the build (the commit, the date, the compiler), passed as -Xcc -D flags;
/// empty strings when built without them (a plain `swift build`).
const char *odds_build_commit(void);
const char *odds_build_date(void);
const char *odds_build_swift(void);

#endif
