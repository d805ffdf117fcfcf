import Foundation

/// A data provider's identity and the names a person and the environment know it by. Each provider
/// module declares its own (`extension ProviderID { public static let tickodds = … }`) and the
/// registry lists them: nothing below the provider modules knows which providers exist.
public struct ProviderID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Every event, market, message and store key carries a provider: the id is a number (compared and
    /// hashed as one, copied without reference counting), and its names are kept once, in `Catalog`.
    private let index: UInt32

    private struct Names: Sendable { var rawValue: String, displayName: String, environmentName: String, singleBook: String?, tag: String }

    /// The providers declared in this process, each once (the first declaration of an id is its names).
    private final class Catalog: @unchecked Sendable {  // `names` and `byRawValue` are behind `lock`
        static let shared = Catalog()
        private let lock = NSLock()
        private var names: [Names] = []
        private var byRawValue: [String: UInt32] = [:]

        func intern(_ n: Names) -> UInt32 {
            lock.lock(); defer { lock.unlock() }
            if let i = byRawValue[n.rawValue] { return i }
            names.append(n)
            byRawValue[n.rawValue] = UInt32(names.count - 1)
            return UInt32(names.count - 1)
        }

        func names(_ i: UInt32) -> Names { lock.lock(); defer { lock.unlock() }; return names[Int(i)] }

        func index(of rawValue: String) -> UInt32? { lock.lock(); defer { lock.unlock() }; return byRawValue[rawValue] }
    }

    /// `tag`: two characters for narrow columns (the fused table's SRC); by default the name's first two letters.
    public init(_ rawValue: String, displayName: String, environmentName: String, singleBook: String? = nil, tag: String? = nil) {
        index = Catalog.shared.intern(Names(rawValue: rawValue, displayName: displayName, environmentName: environmentName,
                                            singleBook: singleBook, tag: tag ?? String(displayName.prefix(2)).uppercased()))
    }

    private init(index: UInt32) { self.index = index }

    /// The provider declared in this process with the id `rawValue` (a stored row names its provider so).
    public static func declared(_ rawValue: String) -> ProviderID? { Catalog.shared.index(of: rawValue).map(ProviderID.init(index:)) }

    /// The id users type (`--provider sportsapi-v1`) and recordings name (`"feed":"sportsapi-v1/live"`).
    public var rawValue: String { Catalog.shared.names(index).rawValue }
    /// The name people read ("SportsAPIPro v1").
    public var displayName: String { Catalog.shared.names(index).displayName }
    /// The PROVIDER part of `ODDS_<PROVIDER>_KEY` and friends.
    public var environmentName: String { Catalog.shared.names(index).environmentName }
    /// The book of a single-book feed: every price it sends is this book's. Nil for feeds that
    /// carry several sportsbooks, whose prices name their own.
    public var singleBook: String? { Catalog.shared.names(index).singleBook }

    /// Two characters for narrow columns ("BO", "S2"): the fused table's SRC, value tables' BOOK.
    public var tag: String { Catalog.shared.names(index).tag }

    /// The table name in the config file (`[pulsescore]`, `[sportsapi_v1]`).
    public var configName: String { String(rawValue.map { $0 == "-" ? "_" : $0 }) }

    public var description: String { rawValue }

    public static func == (a: ProviderID, b: ProviderID) -> Bool { a.index == b.index }
    public static func < (a: ProviderID, b: ProviderID) -> Bool { a.rawValue < b.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(index) }
}
