import Foundation
import OddsJSON
import OddsModel
import OddsOutput

/// How an alert is written: one JSON object (`--ndjson`), a record of named cells (TSV, CSV), or one line for a
/// person on a terminal.
extension Alert {
    /// `{"type":"alert","rule":…,"kind":…,"time":…,"match":{…},…}`; prices as `odds stream` writes them.
    public func json(labels: [(String, JSONOutput)] = []) -> JSONOutput {
        var fields: [(String, JSONOutput)] = [
            ("type", .string("alert")), ("rule", .string(rule.text)), ("name", .optionalString(rule.name)), ("kind", .string(kind)),
            ("time", .string(EventJSON.date(at))), ("provider", .string(provider.rawValue)),
            ("event", .optionalString(eventID.isEmpty ? nil : eventID)), ("fusedMatch", .optionalString(fusedMatch)), ("match", .string(match)), ("home", .string(home)), ("away", .optionalString(away)), ("league", .optionalString(league)),
            ("market", .optionalString(marketID)), ("marketName", .optionalString(marketName)), ("line", .optionalString(line)),
            ("selection", .optionalString(selection)), ("book", .optionalString(book)),
            ("price", price.map { EventJSON.price($0, book: book) } ?? .null),
            ("from", from.map { EventJSON.price($0, book: book) } ?? .null),
            ("fromTime", .optionalString(fromAt.map(EventJSON.date))),
            ("books", .array(books.map { b in
                .object([("book", .string(b.book)), ("from", EventJSON.price(b.from, book: b.book)), ("fromTime", .string(EventJSON.date(b.fromAt))),
                         ("to", EventJSON.price(b.to, book: b.book)), ("time", .string(EventJSON.date(b.at)))])
            })),
            ("first", .optionalString(books.first?.book)),
            ("fair", .optionalString(fair)), ("ev", .optionalString(ev)),
            ("legs", .array(legs.map { l in
                .object([("selection", .string(l.selection)), ("book", .string(l.book)), ("price", EventJSON.price(l.price, book: l.book))])
            })),
            ("profit", .optionalString(profit)),
            ("silentSeconds", silentFor.map { .number(Self.tenths($0)) } ?? .null),
            ("sourcesLost", .bool(sourcesLost)),
            ("ages", .array(ages.map { a in
                .object([("book", .string(a.book)), ("seconds", a.seconds.map { .number(Self.tenths($0)) } ?? .null)])
            })),
            ("incident", incident.map(EventJSON.incident) ?? .null),
            ("status", .optionalString(status?.rawValue)),
        ]
        fields += labels
        return .object(fields)
    }

    /// Seconds to a tenth, as JSON number text ("12.3"); never negative.
    static func tenths(_ seconds: TimeInterval) -> String {
        guard seconds.isFinite, seconds > 0 else { return "0.0" }
        let t = Int((seconds * 10).rounded())
        return "\(t / 10).\(t % 10)"
    }

    /// The cells of `columns`, in order.
    public func record(_ format: OddsFormat) -> [(String, JSONOutput)] {
        [("time", .string(EventJSON.date(at))), ("rule", .string(rule.name ?? rule.text)), ("kind", .string(kind)),
         ("provider", .string(provider.rawValue)), ("event", .string(eventID)), ("match", .string(match)),
         ("market", .optionalString(marketName ?? marketID)), ("line", .optionalString(line)), ("selection", .optionalString(selection)),
         ("book", .optionalString(book)), ("price", .optionalString(price?.formatted(format))),
         ("from", .optionalString(from?.formatted(format))), ("detail", .optionalString(detail))]
    }

    public static let columns: [Tabular.Column] = [
        .init("TIME"), .init("RULE", shrinkable: true), .init("KIND"), .init("PROVIDER"), .init("EVENT"), .init("MATCH", shrinkable: true),
        .init("MARKET", shrinkable: true), .init("LINE"), .init("SELECTION", shrinkable: true), .init("BOOK"), .init("PRICE", rightAligned: true),
        .init("FROM", rightAligned: true), .init("DETAIL", shrinkable: true),
    ]

    /// What happened, in words: the incident, the status, or nothing for a price.
    public var detail: String? {
        if let silentFor {
            return sourcesLost ? "no live source: last heard \(Int(silentFor)) s ago" : "no message for \(Int(silentFor)) s"
        }
        if !legs.isEmpty {
            return "arbitrage \(profit ?? ""): " + legs.map { "\($0.selection) \($0.price.decimalText) (\($0.book))" }.joined(separator: ", ")
        }
        if let ev { return "EV \(ev)" + (fair.map { " against a fair \($0)" } ?? "") }
        if !books.isEmpty {
            let moves = books.map { "\($0.book) \($0.from.decimalText)→\($0.to.decimalText)" }
            return "\(books.count) books: " + moves.joined(separator: ", ") + " (first \(books[0].book))"
        }
        if let i = incident {
            return i.headline
        }
        return status.map { $0 == .ended ? "full time" : "kick-off" }
    }

    /// One line for a person: `19:42:07  move any 5% in 30s  Arsenal v Chelsea  Arsenal 2.00 → 2.11 (pinnacle)`
    /// (without the time where the line's place says it, as in the dashboard's ticker).
    /// Not yet made terminal-safe (the caller does).
    public func line(_ format: OddsFormat, time: Bool = true) -> String {
        var what: [String] = []
        if let selection, books.isEmpty {
            var s = selection + (line.map { " " + $0 } ?? "")
            if let from { s += " " + from.formatted(format) + " →" }
            if let price { s += " " + price.formatted(format) }
            if let book { s += " (\(book))" }
            what.append(s)
        }
        if !books.isEmpty, let selection { what.append(selection + (line.map { " " + $0 } ?? "")) }
        if let detail { what.append(detail) }
        return ((time ? [ISODate.timeOfDay(at)] : []) + [rule.name ?? rule.text, match] + what).joined(separator: "  ")
    }
}
