import OddsModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The C library's `wcwidth` (POSIX; the Glibc module does not export it to Swift).
@_silgen_name("wcwidth")
private func c_wcwidth(_ c: Int32) -> Int32

/// Provider text made safe for a terminal: the one filter every human-facing output (tables, TSV,
/// CSV, detail views, the dashboard) passes provider strings through.
public enum TerminalText {
    public static let placeholder: Unicode.Scalar = "\u{FFFD}"

    /// `text` as an OSC 8 hyperlink to `url` (a terminal that knows them makes it clickable; others
    /// show the text). Only an http(s) URL of printable ASCII is linked: a provider's URL can carry
    /// no escape or control character into the terminal.
    public static func hyperlink(_ text: String, url: String?) -> String {
        guard let url, url.hasPrefix("https://") || url.hasPrefix("http://"), url.utf8.count <= 2048,
              url.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else { return text }
        return "\u{1B}]8;;\(url)\u{1B}\\" + text + "\u{1B}]8;;\u{1B}\\"
    }

    /// `text` with C0 and C1 control characters, DEL, and the bidi overrides and isolates
    /// (U+202A–U+202E, U+2066–U+2069) replaced by U+FFFD, and tabs and line breaks by spaces: none
    /// of them can move the cursor, rewrite the title, clear the screen or reorder a line.
    public static func safe(_ text: String) -> String {
        if isPrintableASCII(text) { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09, 0x0A, 0x0D: out.append(" ")
            case 0x00..<0x20, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: out.append(placeholder)
            default: out.append(scalar)
            }
        }
        return String(out)
    }
}

extension TerminalText {
    /// Whether every byte is printable ASCII (the common case), read from the string's own storage
    /// where it has one: through the UTF-8 view one byte at a time it was a noticeable cost of a large
    /// table.
    @inline(__always)
    static func isPrintableASCII(_ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { bytes in bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F } }
            ?? text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }
}

/// Terminal display width of text, from the C library's `wcwidth` (wide CJK and emoji take two
/// cells, combining marks none).
public enum TextWidth {
    /// `wcwidth` reads the C locale's character type: a UTF-8 one, set once for the process (the
    /// user's when it is UTF-8, else C.UTF-8).
    static let utf8Locale: Bool = {
        if setlocale(LC_CTYPE, "") != nil, let codeset = nl_langinfo(nl_item(CODESET)),
           String(cString: codeset).uppercased().contains("UTF") { return true }
        return setlocale(LC_CTYPE, "C.UTF-8") != nil
    }()

    public static func width(of text: String) -> Int {
        // Printable ASCII is one cell a byte: the common case, without grapheme breaking.
        if TerminalText.isPrintableASCII(text) { return text.utf8.count }
        var total = 0
        for character in text { total += width(of: character) }
        return total
    }

    public static func width(of character: Character) -> Int {
        if let ascii = character.asciiValue { return ascii >= 0x20 && ascii < 0x7F ? 1 : 0 }
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        let v = first.value
        if v < 0x20 || (0x7F..<0xA0).contains(v) { return 0 }
        // An emoji presentation selector makes a narrow symbol a two-cell emoji.
        if scalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
        _ = utf8Locale
        let w = c_wcwidth(Int32(bitPattern: v))
        // Unassigned or unknown to this C library: terminals give it one cell.
        return w < 0 ? 1 : Int(w)
    }

    /// Cuts `text` to at most `width` cells, ending in "…" when cut.
    public static func truncate(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        if self.width(of: text) <= width { return text }
        var out = ""
        var used = 0
        for c in text {
            let w = self.width(of: c)
            if used + w > width - 1 { break }
            out.append(c)
            used += w
        }
        return out + "…"
    }

    /// Pads `text` with spaces to exactly `width` cells (truncating if longer).
    public static func pad(_ text: String, to width: Int, right: Bool = false) -> String {
        let t = truncate(text, to: width)
        let fill = String(repeating: " ", count: max(0, width - self.width(of: t)))
        return right ? fill + t : t + fill
    }
}

extension TerminalText {
    /// Every provider string of `event` made safe (ids, names, league, clock, period, markets,
    /// selections, incidents); prices are numbers the model already checked.
    public static func safe(_ event: Event) -> Event {
        var e = event
        e.id = safe(e.id); e.sport = safe(e.sport); e.league = e.league.map(safe); e.home = safe(e.home)
        e.away = e.away.map(safe); e.clock = e.clock.map(safe); e.period = e.period.map(safe)
        e.scoreText = e.scoreText.map(safe)
        for m in e.markets.indices {
            e.markets[m].id = safe(e.markets[m].id)
            e.markets[m].name = safe(e.markets[m].name)
            e.markets[m].book = e.markets[m].book.map(safe)
            for s in e.markets[m].selections.indices {
                e.markets[m].selections[s].id = safe(e.markets[m].selections[s].id)
                e.markets[m].selections[s].name = safe(e.markets[m].selections[s].name)
                e.markets[m].selections[s].line = e.markets[m].selections[s].line.map(safe)
            }
        }
        e.incidents = e.incidents.map(safe)
        e.stats = e.stats.map { TeamStat(name: safe($0.name), home: safe($0.home), away: safe($0.away), group: $0.group.map(safe)) }
        if let l = e.lineups {
            func side(_ s: Lineup?) -> Lineup? {
                s.map { s in
                    let p = { (p: LineupPlayer) in LineupPlayer(name: safe(p.name), number: p.number.map(safe), position: p.position.map(safe)) }
                    return Lineup(formation: s.formation.map(safe), starters: s.starters.map(p), substitutes: s.substitutes.map(p))
                }
            }
            e.lineups = Lineups(home: side(l.home), away: side(l.away), confirmed: l.confirmed)
        }
        return e
    }

    /// Every provider string of an incident made safe.
    public static func safe(_ incident: Incident) -> Incident {
        var i = incident
        i.player = i.player.map(safe); i.detail = i.detail.map(safe); i.assist = i.assist.map(safe)
        i.playerOut = i.playerOut.map(safe); i.reason = i.reason.map(safe); i.id = i.id.map(safe)
        return i
    }
}
