import Foundation
import OddsJSON
import OddsModel

/// The fast path for the odds stream's data messages (initial_state, game_update, game_added,
/// line_update): one pass over the frame's bytes, no value tree. It answers only for frames it can
/// read exactly as the generic decoder does; anything else (another action, a bad or duplicate
/// outcome, a duplicate key, an odd type) returns nil and the generic decoder reads the whole frame,
/// so both always agree (a differential fuzz target checks this).
enum BoltOddsFast {
    static func frame(_ bytes: [UInt8]) -> [BoltOddsWire.OddsMessage]? {
        bytes.withUnsafeBufferPointer { buffer in
            var s = JSONScanner(buffer)
            do {
                var messages: [BoltOddsWire.OddsMessage] = []
                if s.isArray() {
                    if try s.enterArray() {
                        repeat {
                            guard let m = try message(&s) else { return nil }
                            messages.append(m)
                        } while try s.nextElement()
                    }
                } else {
                    guard let m = try message(&s) else { return nil }
                    messages.append(m)
                }
                try s.finish()
                return messages
            } catch {
                return nil
            }
        }
    }

    /// Flags for members seen once: a key seen twice leaves the frame to the generic decoder.
    struct Seen {
        var bits: UInt16 = 0
        mutating func first(_ bit: UInt16) -> Bool {
            defer { bits |= bit }
            return bits & bit == 0
        }
    }

    static func message(_ s: inout JSONScanner) throws -> BoltOddsWire.OddsMessage? {
        guard s.isObject(), try s.enterObject() else { return nil }
        var action: String?
        var game: Game?
        var seen = Seen()
        repeat {
            if s.key(is: "action") {
                guard seen.first(1), case .string(let a) = try s.scalar() else { return nil }
                action = a
            } else if s.key(is: "data") {
                guard seen.first(2), let g = try data(&s) else { return nil }
                game = g
            } else {
                try s.skip()
            }
        } while try s.nextMember()
        guard let action, let game else { return nil }
        switch action {
        case "initial_state", "game_update", "game_added":
            return .updates([.bookUpsert(game.event, book: game.book)])
        case "line_update":
            let event = game.event
            return .updates(event.markets.flatMap { market in
                market.selections.map {
                    .price(PriceUpdate(eventID: event.id, marketID: market.id, marketName: market.name, book: game.book, selection: $0))
                }
            })
        default:
            return nil
        }
    }

    struct Game {
        var event: Event
        var book: String
    }

    /// A data object with every field as the generic decoder requires it; nil for anything else.
    static func data(_ s: inout JSONScanner) throws -> Game? {
        guard s.isObject(), try s.enterObject() else { return nil }
        var league, book, label, home, away: String?
        var markets: [Market] = []
        var seen = Seen()
        repeat {
            if s.key(is: "outcomes") {
                guard seen.first(1), s.isObject() else { return nil }
                guard let read = try outcomes(&s, book: book) else { return nil }
                markets = read
                // The book may come after the outcomes: their markets name it once known (below).
                if book == nil { seen.bits |= 64 }
            } else if s.key(is: "sport") {
                guard seen.first(2), case .string(let v) = try s.scalar() else { return nil }
                league = v
            } else if s.key(is: "sportsbook") {
                guard seen.first(4), case .string(let v) = try s.scalar() else { return nil }
                book = v
            } else if s.key(is: "game") {
                guard seen.first(8), case .string(let v) = try s.scalar() else { return nil }
                label = v
            } else if s.key(is: "home_team") {
                guard seen.first(16), case .string(let v) = try s.scalar() else { return nil }
                home = v
            } else if s.key(is: "away_team") {
                guard seen.first(32), case .string(let v) = try s.scalar() else { return nil }
                away = v
            } else {
                try s.skip()
            }
        } while try s.nextMember()
        guard let book, !book.isEmpty, let label, !label.isEmpty, let home, !home.isEmpty, let away, !away.isEmpty else {
            return nil
        }
        if seen.bits & 64 != 0 { for i in markets.indices { markets[i].book = book } }
        let event = Event(provider: .boltodds, id: label, sport: league.map(BoltOddsLeagues.sport) ?? "unknown", league: league,
                          home: home, away: away, status: .live, markets: markets)
        return Game(event: event, book: book)
    }

    /// Outcomes as markets, in order of first appearance; nil when any outcome is not plainly good.
    static func outcomes(_ s: inout JSONScanner, book: String?) throws -> [Market]? {
        var markets: [Market] = []
        guard try s.enterObject() else { return [] }
        repeat {
            let key = s.currentKey
            guard s.isObject(), let (market, selection) = try outcome(&s, key: key) else { return nil }
            if let i = markets.firstIndex(where: { $0.id == market }) {
                // A duplicate outcome is the generic decoder's to skip and count.
                guard !markets[i].selections.contains(where: { $0.ref == selection.ref }) else { return nil }
                markets[i].selections.append(selection)
            } else {
                markets.append(Market(id: market, name: market, book: book, selections: [selection]))
            }
        } while try s.nextMember()
        return markets
    }

    /// One outcome, as `BoltOddsWire.outcome` reads it; nil for anything it would skip or read differently.
    static func outcome(_ s: inout JSONScanner, key: String) throws -> (String, Selection)? {
        guard try s.enterObject() else { return (key, Selection(id: key, name: key, price: nil, suspended: true)) }
        var name, target, overUnder, line, link, odds: String?
        var oddsPresent = false
        var seen = Seen()
        repeat {
            if s.key(is: "odds") {
                guard seen.first(1) else { return nil }
                switch try s.scalar() {
                case .string(let v): odds = v; oddsPresent = true
                case .null: break
                default: return nil
                }
            } else if s.key(is: "outcome_name") {
                guard seen.first(2), let v = try text(&s, numbers: false) else { return nil }
                name = v
            } else if s.key(is: "outcome_target") {
                guard seen.first(4), let v = try text(&s, numbers: true) else { return nil }
                target = v
            } else if s.key(is: "outcome_over_under") {
                guard seen.first(8), let v = try text(&s, numbers: true) else { return nil }
                overUnder = v
            } else if s.key(is: "outcome_line") {
                guard seen.first(16), let v = try text(&s, numbers: true) else { return nil }
                line = v
            } else if s.key(is: "link") {
                guard seen.first(32), let v = try text(&s, numbers: false) else { return nil }
                link = v
            } else {
                try s.skip()
            }
        } while try s.nextMember()
        let market = name.flatMap { $0.isEmpty ? nil : $0 } ?? key
        let t = target.flatMap { $0.isEmpty ? nil : $0 }
        let ou = overUnder.flatMap { $0.isEmpty ? nil : $0 }
        let selectionName = [t, ou].compactMap { $0 }.joined(separator: " ")
        let l = line.flatMap { $0.isEmpty ? nil : $0 }
        if let l, Rational(decimalText: l) == nil { return nil }
        var price: Price?
        if oddsPresent, let odds {
            // The generic decoder's rules ("" is no price); what it would skip leaves the frame to it.
            do { price = try BoltOddsWire.americanPrice(.string(odds), key: key) } catch { return nil }
        }
        let id = selectionName.isEmpty ? key : selectionName
        return (market, Selection(id: id, name: id, line: l, price: price, suspended: price == nil,
                                  link: link.flatMap { $0.isEmpty ? nil : $0 }))
    }

    /// A string (or, when `numbers`, a number's text) as `.some(text)`, null as `.some(nil)`; nil
    /// for another type, which the generic decoder reads differently.
    static func text(_ s: inout JSONScanner, numbers: Bool) throws -> String?? {
        switch try s.scalar() {
        case .string(let v): return .some(v)
        case .number(let v) where numbers: return .some(v)
        case .null: return .some(nil)
        default: return nil
        }
    }
}
