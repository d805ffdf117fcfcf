import Foundation
import OddsModel

/// What a provider can do beyond live events and odds, for commands to ask instead of asking which
/// provider it is.
public struct ProviderCapabilities: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// Prices of several sportsbooks, each naming its own.
    public static let books = ProviderCapabilities(rawValue: 1 << 0)
    /// Match incidents (goals, cards): `odds watch` follows them.
    public static let incidents = ProviderCapabilities(rawValue: 1 << 1)
    /// Team statistics of a match.
    public static let stats = ProviderCapabilities(rawValue: 1 << 2)
    /// Lineups of a match.
    public static let lineups = ProviderCapabilities(rawValue: 1 << 3)
    /// Per-match channels that follow what the dashboard shows (`OddsProvider.focusedStream`).
    public static let matchFocus = ProviderCapabilities(rawValue: 1 << 4)
    /// One-shot REST listings (live events, sports, one event) beside the push feed.
    public static let restListings = ProviderCapabilities(rawValue: 1 << 5)
    /// The feed sends only changes: a price stands until a message says otherwise, so word that it still
    /// stands is the connection's last message (others resend whole events: the event's last arrival).
    public static let changesOnly = ProviderCapabilities(rawValue: 1 << 6)
}

/// One setting of a provider beyond key and URLs: its config key, default, and whether the
/// provider's docs say so (false: inferred, listed as such in `odds help providers`).
public struct ProviderOption: Sendable, Hashable {
    public var key: String
    public var value: String
    public var documented: Bool
    public init(_ key: String, _ value: String, documented: Bool) { self.key = key; self.value = value; self.documented = documented }
}

/// Everything the rest of `odds` knows of one provider. Each provider module exports one; the
/// registry lists them. Commands, the store, output and the dashboard ask this (or a capability),
/// never which provider it is.
public struct ProviderDescriptor: Sendable {
    public var id: ProviderID
    /// Default REST and WebSocket URLs, and whether the provider's docs give them (false: inferred).
    public var restURL: String
    public var webSocketURL: String
    public var restURLDocumented: Bool
    public var webSocketURLDocumented: Bool
    /// What the provider serves, in a few words ("Bet365 odds; REST and WebSocket"), for `odds help providers`.
    public var summary: String
    /// What its docs give and what `odds` inferred, in sentences, for `odds help providers` and the man page.
    public var notes: String
    /// Settings beyond key and URLs, with their defaults.
    public var options: [ProviderOption]
    public var capabilities: ProviderCapabilities
    /// Sport slugs the provider serves, as its docs list them; empty when it names none up front.
    public var sports: [String]
    /// False for a provider whose client is not built yet.
    public var supported: Bool
    /// Short names of the books it carries, lower-case name to label ("draftkings": "DK"), for narrow columns.
    public var bookShortNames: [String: String]
    /// The provider's own command group (`odds boltodds …`): an ArgumentParser command type defined in its module,
    /// in OddsCommandSupport's `ProviderCommandGroup` box. A box and not `Any.Type`: taking a command type out of
    /// `Any.Type` is a runtime conformance look-up, a scan of every conformance record at each start, once per
    /// provider; taking the box out of `AnyObject` compares one class pointer.
    public var commands: (any AnyObject & Sendable)?
    /// Builds the client.
    public var make: @Sendable (ProviderSettings, Transport, BackoffPolicy) -> any OddsProvider
    /// The provider's decoders as fuzz targets, each checked afterwards with a valid frame of its
    /// kind taken from `corpus` (the fuzzer's seed frames).
    public var fuzzTargets: @Sendable (_ corpus: [[UInt8]]) -> [FuzzTarget]

    public init(id: ProviderID, restURL: String, webSocketURL: String, restURLDocumented: Bool = true,
                webSocketURLDocumented: Bool = true, summary: String, notes: String, options: [ProviderOption] = [],
                capabilities: ProviderCapabilities, sports: [String] = [], supported: Bool = true, commands: (any AnyObject & Sendable)? = nil,
                bookShortNames: [String: String] = [:],
                make: @escaping @Sendable (ProviderSettings, Transport, BackoffPolicy) -> any OddsProvider,
                fuzzTargets: @escaping @Sendable (_ corpus: [[UInt8]]) -> [FuzzTarget]) {
        self.id = id; self.restURL = restURL; self.webSocketURL = webSocketURL; self.options = options
        self.restURLDocumented = restURLDocumented; self.webSocketURLDocumented = webSocketURLDocumented
        self.summary = summary; self.notes = notes
        self.capabilities = capabilities; self.sports = sports
        self.supported = supported; self.commands = commands; self.bookShortNames = bookShortNames; self.make = make; self.fuzzTargets = fuzzTargets
    }

    /// Every setting with its default: `url`, `ws_url`, then the provider's options.
    public var settingDefaults: [ProviderOption] {
        [ProviderOption("url", restURL, documented: restURLDocumented), ProviderOption("ws_url", webSocketURL, documented: webSocketURLDocumented)]
            + options
    }

    /// The settings of this provider before config, environment and flags.
    public var defaultSettings: ProviderSettings {
        ProviderSettings(key: nil, restURL: restURL, webSocketURL: webSocketURL,
                         options: Dictionary(options.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a }))
    }
}

/// Follows what the dashboard shows: the match in its detail pane and the rows on screen.
public protocol MatchFocus: Sendable {
    /// Follows `matchID` in full (nil: none).
    func focus(_ matchID: String?)
    /// Follows the rows on screen (their incidents and odds).
    func rows(_ ids: [String])
}

/// One decoder under the fuzzer: it gets bytes and may throw; it must not crash or hang.
public struct FuzzTarget {
    public var name: String
    /// Decodes one input; returns true if it was accepted.
    public var decode: ([UInt8]) -> Bool
    /// Called after the run: a valid frame still decodes (the stream goes on after bad input).
    public var stillWorks: () -> Bool
    /// For a fast decoder with a reference: true when the two disagree on this input.
    public var disagrees: (([UInt8]) -> Bool)?

    public init(name: String, decode: @escaping ([UInt8]) -> Bool, stillWorks: @escaping () -> Bool,
                disagrees: (([UInt8]) -> Bool)? = nil) {
        self.name = name; self.decode = decode; self.stillWorks = stillWorks; self.disagrees = disagrees
    }

    /// What a target must still do with a valid frame after the run.
    public enum Check { case decodesUpdates, reads }

    /// A target for each of `adapters`, named "<provider> <connection>", checked afterwards with the
    /// first frame of `corpus` it decodes into updates (else `fallback`).
    public static func adapters(_ adapters: [any FeedAdapter], corpus: [[UInt8]], fallback: String,
                                check: Check = .decodesUpdates) -> [FuzzTarget] {
        adapters.map { adapter in
            let valid = corpus.first { (try? adapter.decode($0, first: false)).map { !$0.isEmpty } ?? false } ?? Array(fallback.utf8)
            return FuzzTarget(name: "\(adapter.provider.rawValue) \(adapter.connectionName)",
                              decode: { (try? adapter.decode($0, first: false)) != nil },
                              stillWorks: {
                                  switch check {
                                  case .decodesUpdates: return (try? adapter.decode(valid, first: false)).map { !$0.isEmpty } ?? false
                                  // A feed that drops a repeated message (v1's updateId) still reads it.
                                  case .reads: return (try? adapter.receive(valid, first: false)) != nil
                                  }
                              })
        }
    }
}
