import Foundation
import OddsModel

/// A rule that cannot be read: which word is wrong, where, and what was expected there.
public struct AlertRuleError: Error, Equatable, Sendable {
    public var rule: String
    /// The word at fault ("" at the end of the rule).
    public var word: String
    /// Its 1-based position among the rule's words.
    public var position: Int
    /// What was expected there, or what is wrong with it.
    public var problem: String

    /// One sentence: the rule, the word and what is wrong.
    public var message: String {
        let at = word.isEmpty ? "at its end" : "word \(position) ('\(word)')"
        return "Rule '\(rule)', \(at): \(problem)."
    }
}

extension AlertRule {
    /// The grammar, for help text and errors.
    public static let grammar = """
        price SELECTION >=|<=|>|<|= PRICE [at BOOK]     price "Arsenal" >= 2.50, price draw <= 3.1 at pinnacle, price over 2.5 >= 6/4
        move any|SELECTION PERCENT in DURATION [at BOOK] move any 5% in 30s, move "Arsenal" 10% in 5m
        steam N books PERCENT in DURATION [SELECTION]   steam 3 books 3% in 60s
        goal|red-card|penalty|var|kickoff|final [TEAM]  goal "Arsenal", red-card, final
        value >=|> PERCENT, arb >=|> PERCENT            value >= 3%, arb >= 1%
        stale DURATION                                  stale 30s
        """

    /// Reads one rule. Throws `AlertRuleError` naming the word that is wrong.
    public static func parse(_ text: String, name: String? = nil) throws -> AlertRule {
        var p = RuleParser(text)
        return AlertRule(text: text.trimmingCharacters(in: .whitespaces), name: name, kind: try p.parseRule())
    }
}

/// A recursive-descent reader of one rule, word by word.
struct RuleParser {
    struct Word {
        var text: String
        /// Written in quotes: a name, never a keyword.
        var quoted: Bool
    }

    let rule: String
    private(set) var words: [Word] = []
    private var at = 0
    /// An unclosed quote, reported once the words before it are read.
    private var unclosed: String?

    init(_ text: String) {
        rule = text.trimmingCharacters(in: .whitespaces)
        (words, unclosed) = Self.split(rule)
    }

    /// Words split at spaces; "..." and '...' hold spaces; a comparison written against its number (`>=2.5`)
    /// is two words.
    static func split(_ text: String) -> ([Word], String?) {
        var words: [Word] = []
        var chars = Array(text)[...]
        while let c = chars.first {
            if c.isWhitespace { chars.removeFirst(); continue }
            if c == "\"" || c == "'" || c == "“" || c == "”" {
                let closers: Set<Character> = c == "'" ? ["'"] : ["\"", "”", "“"]
                chars.removeFirst()
                guard let end = chars.firstIndex(where: { closers.contains($0) }) else {
                    return (words, String(c) + String(chars))
                }
                words.append(Word(text: String(chars[..<end]), quoted: true))
                chars = chars[(end + 1)...]
                continue
            }
            let end = chars.firstIndex(where: { $0.isWhitespace || $0 == "\"" }) ?? chars.endIndex
            var word = String(chars[..<end])
            chars = chars[end...]
            if let op = [">=", "<=", ">", "<", "="].first(where: { word.hasPrefix($0) }), word.count > op.count,
               !word.dropFirst(op.count).hasPrefix("=") {
                words.append(Word(text: op, quoted: false))
                word = String(word.dropFirst(op.count))
            }
            words.append(Word(text: word, quoted: false))
        }
        return (words, nil)
    }

    // MARK: - Words

    private var current: Word? { at < words.count ? words[at] : nil }

    private func fail(_ problem: String) -> AlertRuleError {
        AlertRuleError(rule: rule, word: current?.text ?? "", position: at + 1, problem: problem)
    }

    private mutating func take() -> Word? {
        defer { if at < words.count { at += 1 } }
        return current
    }

    /// The next word if it is the keyword `k` (any case, unquoted).
    private mutating func keyword(_ k: String) -> Bool {
        guard let w = current, !w.quoted, w.text.lowercased() == k else { return false }
        at += 1
        return true
    }

    private mutating func expect(_ k: String, _ problem: String) throws {
        guard keyword(k) else { throw fail(problem) }
    }

    // MARK: - Rules

    mutating func parseRule() throws -> AlertRule.Kind {
        if let unclosed, words.isEmpty {
            throw AlertRuleError(rule: rule, word: unclosed, position: 1, problem: "a quote is not closed")
        }
        guard let first = current else {
            throw AlertRuleError(rule: rule, word: "", position: 1, problem: "a rule is empty; it starts with price, move, steam, goal, red-card, penalty, var, kickoff, final, value, arb or stale")
        }
        let kind: AlertRule.Kind
        switch first.quoted ? "" : first.text.lowercased() {
        case "price":
            at += 1
            kind = try price()
        case "move":
            at += 1
            kind = try move()
        case "steam":
            at += 1
            kind = try steam()
        case "value", "arb", "arbitrage":
            at += 1
            let strict = try atLeast()
            let edge = try percent()
            kind = first.text.lowercased() == "value" ? .value(edge: edge, strict: strict) : .arbitrage(margin: edge, strict: strict)
        case "stale":
            at += 1
            kind = .stale(after: try duration())
        default:
            guard let incident = AlertRule.IncidentKind(rawValue: first.quoted ? "" : Self.incidentName(first.text)) else {
                throw fail("a rule starts with price, move, steam, goal, red-card, penalty, var, kickoff, final, value, arb or stale")
            }
            at += 1
            var team: String?
            if let w = current, !w.text.isEmpty { team = w.text; at += 1 }
            kind = .incident(incident, team: team)
        }
        if let unclosed {
            throw AlertRuleError(rule: rule, word: unclosed, position: words.count + 1, problem: "a quote is not closed")
        }
        if current != nil { throw fail("nothing is expected after a complete rule (a name of several words goes in quotes)") }
        return kind
    }

    /// Spellings of the incident words users type.
    static func incidentName(_ word: String) -> String {
        switch word.lowercased() {
        case "redcard", "red", "red_card", "sending-off", "sent-off": return "red-card"
        case "pen", "penalty-kick": return "penalty"
        case "start", "kick-off", "ko": return "kickoff"
        case "ft", "end", "full-time", "fulltime": return "final"
        default: return word.lowercased()
        }
    }

    private mutating func price() throws -> AlertRule.Kind {
        let selection = try selectionPattern(allowAny: false)
        guard let w = current, let comparison = AlertRule.Comparison(rawValue: w.text) else {
            throw fail("expected a comparison: >=, <=, >, < or =")
        }
        at += 1
        guard let w = current, let level = Self.price(w.text) else {
            throw fail("expected a price: decimal (2.50), American (+150, -110) or fractional (6/4), above evens of 1.0")
        }
        at += 1
        return .price(AlertRule.PriceLevel(selection: selection, comparison: comparison, level: level, levelText: w.text, book: try book()))
    }

    private mutating func move() throws -> AlertRule.Kind {
        let selection = try selectionPattern(allowAny: true)
        let change = try percent()
        try expect("in", "expected 'in' and a window, as in 'move any 5% in 30s'")
        let window = try duration()
        return .move(AlertRule.PriceMove(selection: selection, change: change, window: window, book: try book()))
    }

    private mutating func steam() throws -> AlertRule.Kind {
        guard let w = current, let n = Int(w.text), (2...100).contains(n) else { throw fail("expected how many books move together (2 or more)") }
        at += 1
        try expect("books", "expected 'books', as in 'steam 3 books 3% in 60s'")
        let change = try percent()
        try expect("in", "expected 'in' and a window, as in 'steam 3 books 3% in 60s'")
        let window = try duration()
        var selection = SelectionPattern.any
        if current != nil { selection = try selectionPattern(allowAny: true) }
        return .steam(AlertRule.Steam(books: n, change: change, window: window, selection: selection))
    }

    /// `>=` or `>` (true for `>`), or nothing (taken as `>=`).
    private mutating func atLeast() throws -> Bool {
        guard let w = current, !w.quoted, w.text.hasPrefix(">") || w.text.hasPrefix("<") || w.text.hasPrefix("=") else { return false }
        switch w.text {
        case ">=": at += 1; return false
        case ">": at += 1; return true
        default: throw fail("expected >= or > (this rule fires when the figure rises to a level)")
        }
    }

    /// `any`, a quoted name, or a word (a selection's key or a one-word team), with a line where one follows.
    private mutating func selectionPattern(allowAny: Bool) throws -> SelectionPattern {
        guard let w = current, !w.text.isEmpty else { throw fail("expected a selection: a team in quotes, or home, draw, away, over 2.5…") }
        if !w.quoted {
            if w.text.lowercased() == "any" {
                guard allowAny else { throw fail("a price rule names its selection (any fits a move or steam rule)") }
                at += 1
                return .any
            }
            if AlertRule.Comparison(rawValue: w.text) != nil || w.text.hasSuffix("%") || Self.price(w.text) != nil && Double(w.text) != nil {
                throw fail("expected a selection: a team in quotes, or home, draw, away, over 2.5…")
            }
        }
        at += 1
        var line: String?
        // A signed or decimal number after a selection is its line: over 2.5, "Arsenal" -1.5.
        if let next = current, !next.quoted, Rational(decimalText: next.text.hasPrefix("+") ? String(next.text.dropFirst()) : next.text) != nil
            || (next.text.hasPrefix("-") && Rational(decimalText: String(next.text.dropFirst())) != nil) {
            if words.count > at + 1, AlertRule.Comparison(rawValue: words[at + 1].text) != nil || words[at + 1].text.hasSuffix("%") {
                line = next.text
                at += 1
            }
        }
        return .named(w.text, line: line)
    }

    private mutating func book() throws -> String? {
        guard keyword("at") else { return nil }
        guard let w = current, !w.text.isEmpty else { throw fail("expected a book after 'at'") }
        at += 1
        return w.text
    }

    /// "5%", "0.5%": the fraction (0.05), exactly; positive.
    private mutating func percent() throws -> Rational {
        guard let w = current, w.text.hasSuffix("%"), let p = Rational(decimalText: String(w.text.dropLast())), p > Rational(0, 1)!,
              let f = p.multiplied(by: Rational(1, 100)!) else {
            throw fail("expected a percentage above 0, such as 5% or 0.5%")
        }
        at += 1
        return f
    }

    /// "30s", "5m", "500ms", "1h"; positive, at most a day.
    private mutating func duration() throws -> TimeInterval {
        guard let w = current, let seconds = Self.seconds(w.text), seconds > 0, seconds <= 86_400 else {
            throw fail("expected a duration such as 30s, 5m or 500ms (at most a day)")
        }
        at += 1
        return seconds
    }

    static func seconds(_ text: String) -> TimeInterval? {
        let t = text.lowercased()
        for (suffix, scale) in [("ms", 0.001), ("s", 1.0), ("m", 60.0), ("h", 3600.0)] where t.hasSuffix(suffix) {
            let number = t.dropLast(suffix.count)
            guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let v = Double(number), v.isFinite else { return nil }
            return v * scale
        }
        return nil
    }

    /// A price in any odds format as decimal odds: American when signed, fractional with a slash, else decimal;
    /// above 1 (evens of nothing is no price).
    static func price(_ text: String) -> Rational? { Price(typed: text)?.decimalOdds }
}
