import ArgumentParser
import OddsJSON
import OddsModel
import OddsOutput
import OddsTransport

/// One part of one match, fetched and printed as rows: the shape of a provider's `incidents ID`, `stats ID`,
/// `lineups ID` and `odds ID`. A command fills in what to fetch and how its rows read; the host, the formats
/// and the empty answer are this shape's.
public protocol MatchPartCommand: AsyncParsableCommand {
    var common: CommonOptions { get }
    /// The match as typed.
    var matchID: String { get }
    static var provider: ProviderID { get }
    /// The match with this part.
    static func fetch(_ id: String, _ rt: any CommandContext) async throws -> Event
    static func columns(_ e: Event) -> [Tabular.Column]
    static func records(_ e: Event, _ rt: any CommandContext) -> [[(String, JSONOutput)]]
    /// What a table says when there are no rows (nil: the reporter's own sentence).
    static var nothing: String? { get }
    /// The answer as JSON when the part has a shape of its own (nil: the rows, as records).
    static func json(_ e: Event, _ rt: any CommandContext) -> JSONOutput?
}

extension MatchPartCommand {
    public static var nothing: String? { nil }
    public static func json(_ e: Event, _ rt: any CommandContext) -> JSONOutput? { nil }

    public func run() async throws {
        let id = matchID
        try await CommandHost.run(common, provider: Self.provider) { rt in
            let e = try await Self.fetch(id, rt)
            if rt.outputFormat == .json, let json = Self.json(e, rt) {
                rt.io.out(json.rendered + "\n")
                return
            }
            let records = Self.records(e, rt)
            if records.isEmpty, rt.outputFormat == .table, let nothing = Self.nothing {
                rt.io.out(rt.renderOptions.banner + nothing + "\n")
                return
            }
            rt.io.out(RecordReporter.render(columns: Self.columns(e), records: records, format: rt.outputFormat, options: rt.renderOptions))
        }
    }
}
