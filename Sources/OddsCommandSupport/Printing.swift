import OddsJSON
import OddsModel
import OddsOutput

extension CommandContext {
    /// Sports with their live counts, as a table or records.
    public func printSports(_ sports: [SportCount]) {
        let rt = self
    let records: [[(String, JSONOutput)]] = sports.map {
        [("sport", .string($0.sport)), ("name", .string($0.name)), ("count", $0.count.map { .int($0) } ?? .null)]
    }
    rt.io.out(RecordReporter.render(columns: [.init("SPORT"), .init("NAME"), .init("LIVE", rightAligned: true)],
                                    records: records, format: rt.outputFormat, options: rt.renderOptions))
}

/// A provider document with no model of its own: as sent with --json, else one row per value with
/// its path (the top-level key, usually the game, in its own column).
    public func printDocument(_ value: JSONValue) {
        let rt = self
    if rt.outputFormat == .json {
        // Demo and replayed data say so, as every other JSON answer does (an object gains the labels).
        var out = JSONOutput(value)
        if case .object(let fields) = out { out = .object(fields + rt.renderOptions.jsonLabels) }
        rt.io.out(out.rendered + "\n")
        return
    }
    var records: [[(String, JSONOutput)]] = []
    let top: [(String, JSONValue)]
    switch value {
    case .object(let members): top = members.members.map { ($0.key, $0.value) }
    case .array(let items): top = items.enumerated().map { (String($0.offset), $0.element) }
    default: top = [("", value)]
    }
    for (name, inner) in top {
        for leaf in JSONOutput.leaves(inner) {
            records.append([("game", .string(name)), ("field", .string(leaf.path)), ("value", .string(leaf.value))])
        }
    }
    rt.io.out(RecordReporter.render(columns: [.init("GAME", shrinkable: true), .init("FIELD"), .init("VALUE", shrinkable: true)],
                                    records: records, format: rt.outputFormat, options: rt.renderOptions))
}
}
