import CFileMap
import Foundation
import NIOConcurrencyHelpers
import OddsJSON
import OddsModel

/// One line of a recording.
public struct RecordedFrame: Sendable {
    /// When it was received, in Unix milliseconds.
    public var t: Int64
    /// `"<provider>/<connection>"`.
    public var feed: String
    public var demo: Bool
    /// The frame's bytes: the JSON verbatim, or the text of a non-JSON frame.
    public var bytes: [UInt8]

    /// The provider part of `feed`, as the registry names providers.
    public var providerName: String { RecordedFrame.providerName(of: feed) }
    /// The provider part of a recording line's `feed` ("boltodds" of "boltodds/odds").
    public static func providerName(of feed: String) -> String { String(feed.prefix(while: { $0 != "/" })) }
    public var connection: String { feed.split(separator: "/", maxSplits: 1).dropFirst().first.map(String.init) ?? "" }
    public var date: Date { Date(timeIntervalSince1970: Double(t) / 1000) }
}
