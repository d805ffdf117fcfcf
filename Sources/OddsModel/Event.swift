import Foundation

/// One sporting event (fixture, match or race) as every provider is normalized to.
///
/// A value whose fields are kept behind one pointer (`CopyOnWrite`): moving or copying an event
/// through a feed's message, its updates and the store's state is a word, not 264 bytes and a retain
/// of every string. A field changed in place (`event.markets[i].selections[j].price = p`) copies the
/// fields first only when another event shares them.
public struct Event: Hashable, Sendable, Identifiable {
    @usableFromInline
    struct Fields: Hashable, Sendable {
        @usableFromInline var provider: ProviderID
        @usableFromInline var id: String
        @usableFromInline var sport: String
        @usableFromInline var league: String?
        @usableFromInline var home: String
        @usableFromInline var away: String?
        @usableFromInline var status: EventStatus
        @usableFromInline var startTime: Date?
        @usableFromInline var score: Score?
        @usableFromInline var scoreText: String?
        @usableFromInline var clock: String?
        @usableFromInline var clockStart: ClockStart?
        @usableFromInline var period: String?
        @usableFromInline var markets: [Market]
        @usableFromInline var incidents: [Incident]
        @usableFromInline var stats: [TeamStat]
        @usableFromInline var lineups: Lineups?
        @usableFromInline var updatedAt: Date?
        @usableFromInline var match: MatchInfo?
    }

    @usableFromInline var fields: CopyOnWrite<Fields>

    init(fields: Fields) { self.fields = CopyOnWrite(fields) }

    @inlinable public var provider: ProviderID {
        _read { yield fields.value.provider }
        _modify { yield &fields.value.provider }
    }
    /// The provider's fixture id.
    @inlinable public var id: String {
        _read { yield fields.value.id }
        _modify { yield &fields.value.id }
    }
    /// A lower-case slug: "soccer", "ice-hockey".
    @inlinable public var sport: String {
        _read { yield fields.value.sport }
        _modify { yield &fields.value.sport }
    }
    @inlinable public var league: String? {
        _read { yield fields.value.league }
        _modify { yield &fields.value.league }
    }
    @inlinable public var home: String {
        _read { yield fields.value.home }
        _modify { yield &fields.value.home }
    }
    /// Nil for races and other events that have no away side.
    @inlinable public var away: String? {
        _read { yield fields.value.away }
        _modify { yield &fields.value.away }
    }
    @inlinable public var status: EventStatus {
        _read { yield fields.value.status }
        _modify { yield &fields.value.status }
    }
    @inlinable public var startTime: Date? {
        _read { yield fields.value.startTime }
        _modify { yield &fields.value.startTime }
    }
    @inlinable public var score: Score? {
        _read { yield fields.value.score }
        _modify { yield &fields.value.score }
    }
    /// The provider's score text when it is not "N-N" (tennis sets "6-4 3-2", cricket "245/6", a
    /// race): kept and shown as sent, never dropped. Nil when `score` holds it.
    @inlinable public var scoreText: String? {
        _read { yield fields.value.scoreText }
        _modify { yield &fields.value.scoreText }
    }
    @inlinable public var clock: String? {
        _read { yield fields.value.clock }
        _modify { yield &fields.value.clock }
    }
    /// When the clock runs on its own between messages (see `clockLabel(at:)`).
    @inlinable public var clockStart: ClockStart? {
        _read { yield fields.value.clockStart }
        _modify { yield &fields.value.clockStart }
    }
    @inlinable public var period: String? {
        _read { yield fields.value.period }
        _modify { yield &fields.value.period }
    }
    @inlinable public var markets: [Market] {
        _read { yield fields.value.markets }
        _modify { yield &fields.value.markets }
    }
    @inlinable public var incidents: [Incident] {
        _read { yield fields.value.incidents }
        _modify { yield &fields.value.incidents }
    }
    /// Match statistics, when a provider sends them (SportsAPIPro's stats channel).
    @inlinable public var stats: [TeamStat] {
        _read { yield fields.value.stats }
        _modify { yield &fields.value.stats }
    }
    /// Lineups, when a provider sends them.
    @inlinable public var lineups: Lineups? {
        _read { yield fields.value.lineups }
        _modify { yield &fields.value.lineups }
    }
    /// When this event last changed, as seen by the client.
    @inlinable public var updatedAt: Date? {
        _read { yield fields.value.updatedAt }
        _modify { yield &fields.value.updatedAt }
    }
    /// Set on a fused match (several providers' events of one real match): its id, sources and joins.
    @inlinable public var match: MatchInfo? {
        _read { yield fields.value.match }
        _modify { yield &fields.value.match }
    }
}

extension Event {
    /// The score as shown: "2-1", or the provider's own text when it is not N-N.
    public var scoreLabel: String? { score?.text ?? scoreText }
}

/// Printed and dumped as its fields (a test's failure, a debugger), not as its storage.
extension Event: CustomReflectable {
    public var customMirror: Mirror { Mirror(self, children: Mirror(reflecting: fields.value).children, displayStyle: .struct) }
}

extension Event {
    public init(provider: ProviderID, id: String, sport: String, league: String? = nil, home: String, away: String?,
                status: EventStatus = .unknown, startTime: Date? = nil, score: Score? = nil, scoreText: String? = nil,
                clock: String? = nil, period: String? = nil, markets: [Market] = [], incidents: [Incident] = [],
                updatedAt: Date? = nil) {
        self.init(fields: Fields(provider: provider, id: id, sport: sport, league: league, home: home, away: away, status: status,
                                 startTime: startTime, score: score, scoreText: score == nil ? scoreText : nil, clock: clock,
                                 clockStart: nil, period: period, markets: markets, incidents: incidents, stats: [],
                                 lineups: nil, updatedAt: updatedAt, match: nil))
    }
}
