/// Which events were used last, for what keeps something per event for a bounded number of them (the market
/// reader's readings, the markets a stream wrote): past `capacity`, the event used longest ago is the one to let go.
public struct EventRecency: Sendable {
    public let capacity: Int
    /// When each event was last used (a count of uses).
    private var lastUse: [EventKey: Int] = [:]
    private var uses = 0

    public init(capacity: Int) { self.capacity = max(1, capacity) }

    /// Notes that `key` was used now. With `held` events kept, the one used longest ago when that is more than
    /// `capacity` (never `key`): the caller lets it go.
    public mutating func use(_ key: EventKey, held: Int) -> EventKey? {
        uses += 1
        lastUse[key] = uses
        guard held > capacity, let oldest = lastUse.min(by: { $0.value < $1.value })?.key, oldest != key else { return nil }
        lastUse[oldest] = nil
        return oldest
    }

    /// Forgets an event let go of otherwise.
    public mutating func forget(_ key: EventKey) { lastUse[key] = nil }
}
