import Foundation
import OddsJSON
import OddsModel

/// The fields TickOdds' decoder reads from a selection, an odds entry, a market group and an event,
/// each a `JSONScalar` as written (nil: absent; with duplicate keys, the last). Both decoders fill
/// these: the generic one from a `JSONValue` tree, the fast one straight from the frame's bytes;
/// the wire rules that turn them into model values are written once, here.
struct SelectionFields {
    var id, name, odds, price, suspended, side, handicap, line, isMain: JSONScalar?

    init() {}

    init(_ v: JSONValue) {
        id = v["id"].map(JSONScalar.init); name = v["name"].map(JSONScalar.init)
        odds = v["odds"].map(JSONScalar.init); price = v["price"].map(JSONScalar.init)
        suspended = v["suspended"].map(JSONScalar.init); side = v["side"].map(JSONScalar.init)
        handicap = v["handicap"].map(JSONScalar.init); line = v["line"].map(JSONScalar.init)
        isMain = v["isMain"].map(JSONScalar.init)
    }

    enum Field { case id, name, odds, price, suspended, side, handicap, line, isMain, other }

    /// `readID`: the update's selection needs its id; a market group's selections do not.
    /// `templates`: the members of the selection read at this place before (always with the same `readID`).
    init(_ s: inout JSONScanner, readID: Bool, templates: MemberTemplates<(Field, JSONScalar)>? = nil) throws {
        var fields = SelectionFields()
        try MemberTemplates.readObject(&s, templates: { templates }, set: { fields.set($0, $1) }) { s in
            let field = SelectionFields.field(s, readID: readID)
            if field == .other { try s.skip(); return (field, .null) }
            return (field, try s.scalar())
        }
        self = fields
    }

    /// The field the current key names (`other`: skipped).
    static func field(_ s: JSONScanner, readID: Bool) -> Field {
        if s.key(is: "name") { return .name }
        if s.key(is: "odds") { return .odds }
        if s.key(is: "side") { return .side }
        if s.key(is: "suspended") { return .suspended }
        if s.key(is: "handicap") { return .handicap }
        if s.key(is: "price") { return .price }
        if s.key(is: "line") { return .line }
        if s.key(is: "isMain") { return .isMain }
        if readID, s.key(is: "id") { return .id }
        return .other
    }

    mutating func set(_ field: Field, _ value: JSONScalar) {
        switch field {
        case .id: id = value
        case .name: name = value
        case .odds: odds = value
        case .price: price = value
        case .suspended: suspended = value
        case .side: side = value
        case .handicap: handicap = value
        case .line: line = value
        case .isMain: isMain = value
        case .other: break
        }
    }

    func selection(fallbackID: String?) throws -> Selection {
        guard let name = name?.text else { throw MalformedMessage("selection without name") }
        // A present `odds` (even null) is the price; `price` only when `odds` is absent.
        let price = (odds ?? self.price)?.text.flatMap { Price(decimal: $0) }
        let suspended = (self.suspended?.bool ?? false) || price == nil
        let id = side?.string ?? fallbackID ?? name
        return Selection(id: id, name: name, line: handicap?.text ?? line?.text, price: price, suspended: suspended,
                         isMain: isMain?.bool)
    }
}

struct MarketFields {
    var name, key, period: JSONScalar?
    /// `selections` when it is an array (anything else reads as none), already read: a selection
    /// does not depend on its market.
    var selections: [Selection] = []

    init() {}

    init(_ v: JSONValue) throws {
        name = v["name"].map(JSONScalar.init); key = v["key"].map(JSONScalar.init); period = v["period"].map(JSONScalar.init)
        selections = try (v["selections"]?.array ?? []).map { try SelectionFields($0).selection(fallbackID: nil) }
    }

    /// The members a market group's template remembers (the selections are remembered one by one).
    enum Field { case name, key, period, other }

    /// Reads a market group. `memo`, what this fixture's group at the same position held: members and
    /// selections whose bytes it has seen at the same place are taken as read then.
    init(_ s: inout JSONScanner, memo: TickOddsMarketCache.Group? = nil) throws {
        var fields = MarketFields()
        try MemberTemplates.readObject(&s, templates: { memo?.members }, set: { fields.set($0, $1) }) { s in
            guard s.key(is: "selections") else {
                let field = MarketFields.field(s)
                if field == .other { try s.skip(); return (field, .null) }
                return (field, try s.scalar())
            }
            fields.selections = []
            guard s.isArray() else { try s.skip(); return nil }
            guard try s.enterArray() else { return nil }
            // A bad selection throws here, where the generic decoder would throw only if this is the
            // last `selections`: the fast path then gives the message to the generic decoder.
            var j = 0
            repeat {
                guard s.isObject() else { throw MalformedMessage("selection without name") }
                if let selection = memo?.selection(j, at: &s) {
                    fields.selections.append(selection)
                } else {
                    let start = s.index
                    let selection = try SelectionFields(&s, readID: false, templates: memo?.selectionMembers(j))
                        .selection(fallbackID: nil)
                    memo?.remember(selection, j, s, from: start)
                    fields.selections.append(selection)
                }
                j += 1
            } while try s.nextElement()
            return nil
        }
        self = fields
    }

    /// The field the current key names (`other`: skipped; `selections` is read apart).
    static func field(_ s: JSONScanner) -> Field {
        s.key(is: "name") ? .name : s.key(is: "key") ? .key : s.key(is: "period") ? .period : .other
    }

    mutating func set(_ field: Field, _ value: JSONScalar) {
        switch field {
        case .name: name = value
        case .key: key = value
        case .period: period = value
        case .other: break
        }
    }

    /// The market; `memo` gives back the id and name made last time from the same name, key and period.
    func market(memo: TickOddsMarketCache.Group? = nil) throws -> Market {
        if let memo, let market = memo.builtMarket(name: name, key: key, period: period, selections: selections) {
            return market
        }
        guard let name = name?.string else { throw MalformedMessage("market group without name") }
        let id = TickOddsWire.marketID(key: key?.string ?? sportSlug(name), period: period?.string)
        let market = Market(id: id, name: TickOddsWire.marketName(name, period: period?.string), book: TickOddsWire.book, selections: selections)
        memo?.built(market, name: self.name, key: key, period: period)
        return market
    }
}

/// An entry of the flat `odds[]` list.
struct FlatOddsFields {
    var marketKey, side, period, price, name, handicap, marketName: JSONScalar?

    init(_ v: JSONValue) {
        marketKey = v["marketKey"].map(JSONScalar.init); side = v["side"].map(JSONScalar.init)
        period = v["period"].map(JSONScalar.init); price = v["price"].map(JSONScalar.init)
        name = v["name"].map(JSONScalar.init); handicap = v["handicap"].map(JSONScalar.init)
        marketName = v["marketName"].map(JSONScalar.init)
    }

    init(_ s: inout JSONScanner) throws {
        guard s.isObject() else { try s.skip(); return }
        guard try s.enterObject() else { return }
        repeat {
            if s.key(is: "marketKey") { marketKey = try s.scalar() }
            else if s.key(is: "side") { side = try s.scalar() }
            else if s.key(is: "period") { period = try s.scalar() }
            else if s.key(is: "price") { price = try s.scalar() }
            else if s.key(is: "name") { name = try s.scalar() }
            else if s.key(is: "handicap") { handicap = try s.scalar() }
            else if s.key(is: "marketName") { marketName = try s.scalar() }
            else { try s.skip() }
        } while try s.nextMember()
    }

    /// Markets in first-seen order, from the flat list (used when `marketGroups` is absent).
    static func markets(_ flat: [FlatOddsFields]) throws -> [Market] {
        var order: [String] = []
        var byID: [String: Market] = [:]
        for item in flat {
            guard let key = item.marketKey?.string, let side = item.side?.string else {
                throw MalformedMessage("flat odds entry without marketKey/side")
            }
            let id = TickOddsWire.marketID(key: key, period: item.period?.string)
            let price = item.price?.text.flatMap { Price(decimal: $0) }
            let selection = Selection(id: side, name: item.name?.string ?? side, line: item.handicap?.text,
                                      price: price, suspended: price == nil)
            if byID[id] == nil { order.append(id); byID[id] = Market(id: id, name: TickOddsWire.marketName(item.marketName?.string ?? key, period: item.period?.string),
                                                                       book: TickOddsWire.book, selections: []) }
            byID[id]!.selections.append(selection)
        }
        return order.map { byID[$0]! }
    }
}

/// The fields of an `update` message beside its event: what changed and how.
struct UpdateFields {
    var fixtureId, change, to, from, marketKey, marketName: JSONScalar?
    /// `selection` when it is an object (with duplicate keys, the last; anything else reads as none).
    var selection: SelectionFields?

    init() {}

    init(_ v: JSONValue) {
        fixtureId = v["fixtureId"].map(JSONScalar.init); change = v["change"].map(JSONScalar.init)
        to = v["to"].map(JSONScalar.init); from = v["from"].map(JSONScalar.init)
        marketKey = v["marketKey"].map(JSONScalar.init); marketName = v["marketName"].map(JSONScalar.init)
        selection = v["selection"].flatMap { $0.isObject ? SelectionFields($0) : nil }
    }

    /// The updates the message makes, its refreshed event last. `incident` reads the message's
    /// incident for the refreshed event (the fast reader throws for an object: the generic one reads it).
    func updates(refreshed: consuming Event, incident: (Event) throws -> Incident,
                 selectionRef: (String?, String?) -> (marketID: String, side: String?) = TickOddsWire.selectionRef) throws -> [FeedUpdate] {
        guard let change = change?.string else { throw MalformedMessage("update without change") }
        let id = fixtureId?.text ?? refreshed.id
        var updates: [FeedUpdate] = []
        // At most the change and the refreshed event: one allocation.
        updates.reserveCapacity(2)
        switch change {
        case "score":
            // A score that is not N-N stays as text on the refreshed event (the upsert below).
            if let to = to?.string.flatMap(Score.init(text:)) ?? refreshed.score {
                updates.append(.score(eventID: id, from: from?.string.flatMap(Score.init(text:)), to: to))
            }
        case "period":
            updates.append(.status(eventID: id, status: refreshed.status, period: to?.string ?? refreshed.period))
        case "incident":
            updates.append(.incident(eventID: id, try incident(refreshed)))
        case "suspended":
            updates.append(.status(eventID: id, status: refreshed.status, period: refreshed.period))
        case "odds":
            if let selection {
                let ref = selectionRef(selection.id?.text, marketKey?.string)
                let name = marketName?.string ?? refreshed.markets.first { $0.id == ref.marketID }?.name ?? ref.marketID
                updates.append(.price(PriceUpdate(eventID: id, marketID: ref.marketID, marketName: name, book: TickOddsWire.book,
                                                  selection: try selection.selection(fallbackID: ref.side))))
            }
        default:
            break
        }
        updates.append(.upsert(refreshed))
        return updates
    }
}

struct EventFields {
    var isObject = true
    var fixtureId, home, away, sportName, sport, league, leagueName, competition, status, startTime, score, clock, period: JSONScalar?
    /// `marketGroups` when it is an array, read into markets; nil when absent or not an array.
    var marketGroups: [Market]?
    /// `odds` when it is an array (read only while no `marketGroups` array has been seen).
    var flatOdds: [FlatOddsFields]?
    /// The fast reader skipped an `odds` array because `marketGroups` came first.
    var skippedFlatOdds = false
    /// Why the (last) `marketGroups` cannot be read (generic path; the fast path throws at once).
    var badGroups: Error?

    init() {}

    init(_ v: JSONValue) {
        isObject = v.isObject
        fixtureId = v["fixtureId"].map(JSONScalar.init); home = v["home"].map(JSONScalar.init)
        away = v["away"].map(JSONScalar.init); sportName = v["sportName"].map(JSONScalar.init)
        sport = v["sport"].map(JSONScalar.init); league = v["league"].map(JSONScalar.init)
        leagueName = v["leagueName"].map(JSONScalar.init); competition = v["competition"].map(JSONScalar.init)
        status = v["status"].map(JSONScalar.init); startTime = v["startTime"].map(JSONScalar.init)
        score = v["score"].map(JSONScalar.init); clock = v["clock"].map(JSONScalar.init); period = v["period"].map(JSONScalar.init)
        do { marketGroups = try v["marketGroups"]?.array.map { try $0.map { try MarketFields($0).market() } } } catch { badGroups = error }
        flatOdds = v["odds"]?.array.map { $0.map(FlatOddsFields.init) }
    }

    /// The scalar members of an event, as a member template remembers what it read.
    enum Field { case fixtureId, home, away, sportName, sport, league, leagueName, competition, status, startTime, score, clock, period, other }

    /// The scalar field the current key names; nil for the containers and unknown keys.
    static func field(_ s: JSONScanner) -> Field? {
        if s.key(is: "fixtureId") { return .fixtureId }
        if s.key(is: "home") { return .home }
        if s.key(is: "away") { return .away }
        if s.key(is: "sportName") { return .sportName }
        if s.key(is: "league") { return .league }
        if s.key(is: "status") { return .status }
        if s.key(is: "score") { return .score }
        if s.key(is: "clock") { return .clock }
        if s.key(is: "period") { return .period }
        if s.key(is: "startTime") { return .startTime }
        if s.key(is: "sport") { return .sport }
        if s.key(is: "leagueName") { return .leagueName }
        if s.key(is: "competition") { return .competition }
        return nil
    }

    mutating func set(_ field: Field, _ value: JSONScalar) {
        switch field {
        case .fixtureId: fixtureId = value
        case .home: home = value
        case .away: away = value
        case .sportName: sportName = value
        case .sport: sport = value
        case .league: league = value
        case .leagueName: leagueName = value
        case .competition: competition = value
        case .status: status = value
        case .startTime: startTime = value
        case .score: score = value
        case .clock: clock = value
        case .period: period = value
        case .other: break
        }
    }

    /// The fixture's memory in the cache, when the fast reader had one: `event()` patches the
    /// event it built last time instead of building every field again.
    var memo: TickOddsMarketCache.Fixture?

    /// Reads an event object; nil when the value is not an object (the generic decoder then decides).
    /// `cache` gives back the market of a group whose bytes it has seen at the same place, and the
    /// scalar members whose bytes it has seen at the same position.
    init?(_ s: inout JSONScanner, cache: TickOddsMarketCache? = nil) throws {
        guard s.isObject() else { try s.skip(); return nil }
        var fields = EventFields()
        // The fixture's memory, looked up once its id is known (the id is an event's first member).
        func fixture() -> TickOddsMarketCache.Fixture? {
            if fields.memo == nil { fields.memo = cache?.fixture(fields.fixtureId?.text) }
            return fields.memo
        }
        try MemberTemplates.readObject(&s, templates: { fixture()?.members }, set: { fields.set($0, $1) }) { s in
            if let field = EventFields.field(s) { return (field, try s.scalar()) }
            if s.key(is: "marketGroups") {
                guard s.isArray() else { fields.marketGroups = nil; try s.skip(); return nil }
                var groups: [Market] = []
                let memo = fixture()
                if try s.enterArray() {
                    repeat {
                        // Not a group object: the generic decoder decides.
                        guard s.isObject() else { throw TickOddsFast.Declined() }
                        if let market = memo?.market(index: groups.count, at: &s) {
                            groups.append(market)
                            continue
                        }
                        let start = s.index
                        let group = memo?.group(index: groups.count)
                        let market = try MarketFields(&s, memo: group).market(memo: group)
                        group?.store(market, nesting: s.nesting, s.bytes[start..<s.index])
                        groups.append(market)
                    } while try s.nextElement()
                }
                fields.marketGroups = groups
                return nil
            }
            if s.key(is: "odds") {
                if fields.marketGroups != nil {
                    fields.skippedFlatOdds = true
                    fields.flatOdds = nil
                    guard let memo = fixture(), s.isArray() else { try s.skip(); return nil }
                    // Entry by entry: an odds change alters one, the others repeat.
                    if try s.enterArray() {
                        var i = 0
                        repeat { try memo.skip(slot: i, &s); i += 1 } while try s.nextElement()
                    }
                    return nil
                }
                guard s.isArray() else { fields.flatOdds = nil; try s.skip(); return nil }
                var flat: [FlatOddsFields] = []
                if try s.enterArray() {
                    repeat { flat.append(try FlatOddsFields(&s)) } while try s.nextElement()
                }
                fields.flatOdds = flat
                return nil
            }
            if s.key(is: "legacyOdds"), let legacy = fixture() {
                try legacy.skip(slot: -1, &s)
                return nil
            }
            try s.skip()
            return (.other, .null)
        }
        // A later non-array `marketGroups` undid the groups after the flat list was skipped: rare,
        // and the generic decoder has the whole tree.
        if fields.marketGroups == nil && fields.skippedFlatOdds { return nil }
        self = fields
    }

    /// True when every field `event()` reads but the clock and the markets is as in `other`.
    func sameHeader(as other: EventFields) -> Bool {
        isObject == other.isObject && fixtureId == other.fixtureId && home == other.home && away == other.away
            && sportName == other.sportName && sport == other.sport && league == other.league
            && leagueName == other.leagueName && competition == other.competition && status == other.status
            && startTime == other.startTime && score == other.score && period == other.period
    }

    /// The markets: the groups, else the flat list; all suspended while the event is.
    func markets() throws -> [Market] {
        if let badGroups { throw badGroups }
        var markets: [Market] = []
        if let marketGroups {
            markets = marketGroups
        } else if let flatOdds {
            markets = try FlatOddsFields.markets(flatOdds)
        }
        if status?.string == "suspended" {
            for m in markets.indices { for s in markets[m].selections.indices { markets[m].selections[s].suspended = true } }
        }
        return markets
    }

    func event() throws -> Event {
        // A refreshed event whose other fields are as last time: the event built then, with this
        // clock and these markets (what building it again would give, without making its values again).
        if let memo, memo.sameHeader(self) {
            return memo.patch(clock: clock?.string, markets: try markets())
        }
        guard isObject else { throw MalformedMessage("expected an event object") }
        guard let id = fixtureId?.text, !id.isEmpty else { throw MalformedMessage("event without fixtureId") }
        guard let home = home?.string else { throw MalformedMessage("event \(id) without home") }
        let away = away?.string.flatMap { $0.isEmpty ? nil : $0 }
        // A missing sport stays unknown: guessing "Soccer" would file a tennis match under football.
        let sportName = sportName?.string ?? sport?.string ?? "unknown"
        let league = league?.string ?? leagueName?.string ?? competition?.string
        let markets = try markets()
        let event = Event(provider: .tickodds, id: id, sport: sportSlug(sportName), league: league, home: home, away: away,
                          status: TickOddsWire.status(status?.string),
                          startTime: startTime?.string.flatMap(TickOddsWire.parseDate),
                          score: score?.string.flatMap(Score.init(text:)), scoreText: score?.string,
                          clock: clock?.string, period: period?.string, markets: markets)
        memo?.remember(self, event)
        return event
    }
}

/// The fast path for TickOdds' live messages: one pass over the frame's bytes, no value tree.
/// It handles the messages of a live feed (snapshot, match_start, update, heartbeat, other types);
/// for anything unusual (match_end, incident objects, malformed input) it returns nil and the
/// generic decoder decides, so both always agree (a differential fuzz test checks this).
enum TickOddsFast {
    static func message(_ bytes: [UInt8], cache: TickOddsMarketCache? = nil) -> [FeedUpdate]? {
        bytes.withUnsafeBufferPointer { message($0, cache: cache) }
    }

    /// `message` of bytes read in place.
    static func message(_ buffer: UnsafeBufferPointer<UInt8>, cache: TickOddsMarketCache? = nil) -> [FeedUpdate]? {
        var s = JSONScanner(buffer)
        return try? message(&s, cache: cache)
    }

    /// A message the fast path leaves to the generic decoder (`message` answers nil for it).
    struct Declined: Error {}

    /// The scalar members of a message.
    enum Field { case type, change, fixtureId, to, from, marketKey, marketName, incident }

    private static func message(_ s: inout JSONScanner, cache: TickOddsMarketCache?) throws -> [FeedUpdate]? {
        guard s.isObject() else { return nil }
        var type, incident: JSONScalar?
        var update = UpdateFields()
        var event: EventFields?
        var events: [EventFields]?
        // An update's event read against its fixture's layout; else where the member reader read it.
        var laidOut: Event?
        var fixture: TickOddsMarketCache.Fixture?
        var eventAt: (start: Int, nesting: Int)?
        func set(_ field: Field, _ value: JSONScalar) {
            switch field {
            case .type: type = value
            case .change: update.change = value
            case .fixtureId: update.fixtureId = value
            case .to: update.to = value
            case .from: update.from = value
            case .marketKey: update.marketKey = value
            case .marketName: update.marketName = value
            case .incident: incident = value
            }
        }
        try MemberTemplates.readObject(&s, templates: { cache?.messageMembers }, set: set) { s in
            let field: Field? = s.key(is: "type") ? .type : s.key(is: "change") ? .change : s.key(is: "fixtureId") ? .fixtureId
                : s.key(is: "to") ? .to : s.key(is: "from") ? .from : s.key(is: "marketKey") ? .marketKey
                : s.key(is: "marketName") ? .marketName : s.key(is: "incident") ? .incident : nil
            if let field { return (field, try s.scalar()) }
            if s.key(is: "event") {
                // A second event: left to the generic decoder.
                guard case .none = event, laidOut == nil else { throw Declined() }
                if let cache, let id = update.fixtureId?.text, let f = cache.fixture(id) {
                    fixture = f
                    if let layout = f.layout {
                        do {
                            if let read = try layout.read(s) {
                                laidOut = read.event
                                s.skipChecked(to: read.end)
                                f.hits.count += 1
                                f.hits.layouts += 1
                                return nil
                            }
                        } catch {
                            // A changed value that is not JSON: the layout may be half updated.
                            f.layout = nil
                            throw error
                        }
                    }
                }
                guard s.isObject() else { throw Declined() }
                eventAt = (s.index, s.nesting)
                // Read into place (a guard-let would copy the fields twice).
                event = try EventFields(&s, cache: cache)
                guard case .some = event else { throw Declined() }
            }
            else if s.key(is: "selection") {
                if s.isObject() { update.selection = try SelectionFields(&s, readID: true) } else { update.selection = nil; try s.skip() }
            }
            else if s.key(is: "events") {
                guard s.isArray() else { throw Declined() }
                var list: [EventFields] = []
                if try s.enterArray() {
                    repeat {
                        guard let e = try EventFields(&s, cache: cache) else { throw Declined() }
                        list.append(e)
                    } while try s.nextElement()
                }
                events = list
            }
            else { try s.skip() }
            return nil
        }
        try s.finish()

        guard let type = type?.string else { return nil }
        switch type {
        case "snapshot":
            guard let events else { return nil }
            return [.snapshot(try events.map { try $0.event() })]
        case "match_start":
            guard case .some = event else { return nil }
            return [.upsert(try event!.event())]
        case "update":
            let refreshed: Event
            let memo: TickOddsMarketCache.Fixture?
            if let laidOut {
                refreshed = laidOut
                memo = fixture
            } else {
                guard case .some = event else { return nil }
                memo = event!.memo
                refreshed = try event!.event()
                if let fixture, let eventAt { fixture.layOut(s.bytes, at: eventAt, as: refreshed) }
            }
            return try update.updates(refreshed: refreshed, incident: { refreshed in
                // A label; an incident object is rare and left to the generic decoder.
                guard case .string(let label)? = incident else { throw MalformedMessage("an incident object") }
                return TickOddsWire.incident(.string(label), event: refreshed)
            }, selectionRef: { memo?.selectionRef($0, marketKey: $1) ?? TickOddsWire.selectionRef($0, marketKey: $1) })
        case "heartbeat":
            return [.heartbeat]
        case "match_end":
            return nil
        default:
            return []
        }
    }
}

/// Exclusivity: the cache's classes (`Fixture`, `Group`, `Skipped`, `MemberTemplates`) mark their
/// stored properties `@exclusivity(unchecked)`. A cache belongs to one feed connection, whose frames
/// are decoded one at a time, and no access to one of these properties overlaps another access to it
/// (none is passed `inout` to code that reaches it again), so the dynamic check, a real share of the
/// decoder's time, can never fire.
///
/// Market groups the fast path read before, by fixture and position, with the exact bytes each was
/// read from. A live event is resent whole on every change, and most of its groups are unchanged:
/// the same bytes at the same place are the same market (reading is a function of the bytes), so
/// they are compared instead of read again. Bounded: at most `maxFixtures` fixtures.
public final class TickOddsMarketCache {
    /// Bytes checked before, with the depth they were checked at: taken only where it is no deeper.
    struct Seen {
        var bytes: [UInt8]
        var nesting: Int

        mutating func set(_ span: UnsafeBufferPointer<UInt8>, nesting: Int) {
            bytes.removeAll(keepingCapacity: true)
            bytes.append(contentsOf: span)
            self.nesting = nesting
        }
    }

    /// What one fixture's last events held: market groups (read), flat odds entries and
    /// `legacyOdds` (skipped), by position.
    final class Fixture {
        @exclusivity(unchecked) var groups: [Group] = []
        @exclusivity(unchecked) var flat: [Skipped] = []
        let legacy = Skipped()
        /// The event object's scalar (and unknown) members by position.
        let members = MemberTemplates<(EventFields.Field, JSONScalar)>()
        /// The fields of the last event read, without its markets, and the event built from them.
        @exclusivity(unchecked) private var lastFields: EventFields?
        @exclusivity(unchecked) private var lastEvent: Event?
        /// The cache's count of hits (shared: no reference back to the cache to retain on every hit).
        let hits: Hits
        init(_ hits: Hits) { self.hits = hits }

        func remember(_ fields: EventFields, _ event: Event) {
            var header = fields
            // Not the memo itself (a cycle), nor the markets (not compared).
            header.memo = nil
            header.marketGroups = nil
            header.flatOdds = nil
            lastFields = header
            lastEvent = event
        }

        /// The fixture's last event laid out for the next to be read against (see `EventLayout`).
        @exclusivity(unchecked) var layout: EventLayout?
        /// Events to read member by member before laying one out again, after one could not be.
        @exclusivity(unchecked) private var layoutRetry = 0

        /// Lays out the event the member reader read at `at`.
        func layOut(_ bytes: UnsafeBufferPointer<UInt8>, at: (start: Int, nesting: Int), as event: Event) {
            guard layoutRetry == 0 else { layoutRetry -= 1; return }
            layout = EventLayout.make(bytes, start: at.start, nesting: at.nesting, event: event)
            // An event of another shape is not laid out again on every message.
            if layout == nil { layoutRetry = 16 }
        }

        /// Where odds updates' selections belong, by selection id and market key (a fixture has a few).
        @exclusivity(unchecked) private var refs: [(id: String, marketKey: String?, marketID: String, side: String?)] = []

        /// `TickOddsWire.selectionRef`, remembered for the ids seen before.
        func selectionRef(_ id: String?, marketKey: String?) -> (marketID: String, side: String?) {
            guard let id else { return TickOddsWire.selectionRef(nil, marketKey: marketKey) }
            for k in refs.indices where refs[k].id == id && refs[k].marketKey == marketKey {
                return (refs[k].marketID, refs[k].side)
            }
            let ref = TickOddsWire.selectionRef(id, marketKey: marketKey)
            if refs.count >= 64 { refs.removeAll(keepingCapacity: true) }
            refs.append((id, marketKey, ref.marketID, ref.side))
            return ref
        }

        /// True when `fields` are those of the last event but for its clock and markets (compared in
        /// place, not copied out).
        func sameHeader(_ fields: EventFields) -> Bool {
            lastEvent != nil && lastFields!.sameHeader(as: fields)
        }

        /// The last event with this clock and these markets (after `sameHeader`), remembered as the last.
        func patch(clock: String?, markets: [Market]) -> Event {
            lastEvent!.clock = clock
            lastEvent!.markets = markets
            return lastEvent!
        }

        /// The market of the group at the scanner's position, when its bytes are the ones seen at
        /// this place (the scanner then moves past them).
        func market(index: Int, at s: inout JSONScanner) -> Market? {
            guard index < groups.count, let market = groups[index].market, s.nesting <= groups[index].seen.nesting,
                  s.consume(groups[index].seen.bytes) else { return nil }
            hits.count += 1
            return market
        }

        /// The memory of the group at `index` (made for the next position); nil past it.
        func group(index: Int) -> Group? {
            if index < groups.count { return groups[index] }
            guard index == groups.count else { return nil }
            groups.append(Group())
            return groups[index]
        }

        /// Moves past the value here: by comparison when it repeats what this place held, else by a
        /// checked skip (remembered for next time), member by member for an object, whose unchanged
        /// members are compared too. `slot` -1 is `legacyOdds`, others flat entries.
        func skip(slot: Int, _ s: inout JSONScanner) throws {
            let memo: Skipped
            if slot < 0 {
                memo = legacy
            } else if slot < flat.count {
                memo = flat[slot]
            } else {
                memo = Skipped()
                if slot == flat.count { flat.append(memo) }
            }
            if !memo.seen.bytes.isEmpty, s.nesting <= memo.seen.nesting, s.consume(memo.seen.bytes) { hits.count += 1; return }
            let nesting = s.nesting
            guard s.isObject() else {
                memo.seen.set(UnsafeBufferPointer(rebasing: s.bytes[try s.skipRange()]), nesting: nesting)
                return
            }
            let start = s.index
            if try s.enterObjectBeforeKey() {
                var position = -1
                repeat {
                    position += 1
                    if memo.members.match(position, &s) != nil { continue }
                    let member = s.index
                    try s.readMemberKey()
                    try s.skip()
                    memo.members.remember(position, s, from: member, ())
                } while try s.nextMemberBeforeKey()
            }
            memo.seen.set(UnsafeBufferPointer(rebasing: s.bytes[start..<s.index]), nesting: nesting)
        }
    }

    /// A value the fast path skips (a flat odds entry, `legacyOdds`): its bytes, and an object's members.
    final class Skipped {
        @exclusivity(unchecked) var seen = Seen(bytes: [], nesting: 0)
        let members = MemberTemplates<Void>()
    }

    /// What one market group position of a fixture held: the group's bytes and market, its members
    /// and selections by position, and the id and name made from its name, key and period.
    final class Group {
        @exclusivity(unchecked) var seen = Seen(bytes: [], nesting: 0)
        @exclusivity(unchecked) var market: Market?
        let members = MemberTemplates<(MarketFields.Field, JSONScalar)>()
        @exclusivity(unchecked) var selections: [(seen: Seen, selection: Selection)] = []
        /// The members of the selection at each position (a changed selection mostly changes its odds alone).
        @exclusivity(unchecked) private var selectionTemplates: [MemberTemplates<(SelectionFields.Field, JSONScalar)>] = []

        func selectionMembers(_ j: Int) -> MemberTemplates<(SelectionFields.Field, JSONScalar)>? {
            guard j < MemberTemplates<Void>.positions else { return nil }
            while selectionTemplates.count <= j { selectionTemplates.append(MemberTemplates()) }
            return selectionTemplates[j]
        }
        /// The market last built here (with its selections) and the name, key and period it was built from.
        @exclusivity(unchecked) private var builtFrom: (name: JSONScalar?, key: JSONScalar?, period: JSONScalar?)?
        @exclusivity(unchecked) private var builtLast: Market?

        func built(_ market: Market, name: JSONScalar?, key: JSONScalar?, period: JSONScalar?) {
            builtFrom = (name, key, period)
            builtLast = market
        }

        /// The market built last time with these selections, when it was built from the same name, key
        /// and period. Compared in place: copying the remembered values out would cost more than they save.
        func builtMarket(name: JSONScalar?, key: JSONScalar?, period: JSONScalar?, selections: [Selection]) -> Market? {
            guard builtLast != nil, builtFrom!.name == name, builtFrom!.key == key, builtFrom!.period == period else { return nil }
            builtLast!.selections = selections
            return builtLast
        }

        func store(_ market: Market, nesting: Int, _ bytes: Slice<UnsafeBufferPointer<UInt8>>) {
            seen.set(UnsafeBufferPointer(rebasing: bytes), nesting: nesting)
            self.market = market
        }

        /// The selection at position `j` of the group's list, when its bytes are the ones seen there.
        func selection(_ j: Int, at s: inout JSONScanner) -> Selection? {
            guard j < selections.count, s.nesting <= selections[j].seen.nesting, s.consume(selections[j].seen.bytes) else { return nil }
            return selections[j].selection
        }

        func remember(_ selection: Selection, _ j: Int, _ s: JSONScanner, from start: Int) {
            let span = UnsafeBufferPointer(rebasing: s.bytes[start..<s.index])
            if j < selections.count {
                selections[j].seen.set(span, nesting: s.nesting)
                selections[j].selection = selection
            } else if j == selections.count, j < MemberTemplates<Void>.positions {
                selections.append((Seen(bytes: Array(span), nesting: s.nesting), selection))
            }
        }
    }

    @exclusivity(unchecked) var fixtures: [String: Fixture] = [:]
    /// A fixture keeps its groups', selections', flat odds' and legacyOdds' bytes and members, and its
    /// event's layout, each about the size of the event: the bound keeps that memory finite. A live feed
    /// carries tens to a few hundred fixtures; a full subscription a few thousand (the dashboard benchmark's
    /// 2,000-event recording).
    public static let maxFixtures = 4_000
    /// A message's scalar members by position (`"type":"update"` and `"change":"odds"` repeat).
    let messageMembers = MemberTemplates<(TickOddsFast.Field, JSONScalar)>()

    final class Hits {
        @exclusivity(unchecked) var count = 0
        @exclusivity(unchecked) var layouts = 0
    }
    private let hitCount = Hits()
    /// Values taken from the cache instead of read or scanned (for tests and the benchmark).
    public var hits: Int { hitCount.count }
    /// Events read against their fixture's layout (`EventLayout`), of those hits.
    public var layoutHits: Int { hitCount.layouts }

    public init() {}

    /// The memory of one fixture (made on first use; past `maxFixtures`, another fixture's is forgotten);
    /// nil while its id is not known.
    func fixture(_ id: String?) -> Fixture? {
        guard let id else { return nil }
        if let f = fixtures[id] { return f }
        // Past the bound one fixture goes, not all: with more live fixtures than the bound, the others keep
        // their memory (a wipe made every fixture a miss and freed a thousand at once).
        if fixtures.count >= TickOddsMarketCache.maxFixtures, let any = fixtures.keys.first { fixtures[any] = nil }
        let f = Fixture(hitCount)
        fixtures[id] = f
        return f
    }

    /// Forgets a fixture that ended.
    public func remove(fixture: String) { fixtures[fixture] = nil }

    /// Keeps only these fixtures (a snapshot lists every live one).
    public func retain(_ ids: Set<String>) { fixtures = fixtures.filter { ids.contains($0.key) } }

    /// Forgets the fixtures that a frame's updates end: all but a snapshot's, and each one removed.
    public func follow(_ updates: [FeedUpdate]) {
        // Tags first: switching on an update copies what it holds.
        for i in updates.indices where !updates[i].isUpsert {
            if case .remove(let id) = updates[i] {
                remove(fixture: id)
            } else if case .snapshot(let events) = updates[i] {
                retain(Set(events.map(\.id)))
            }
        }
    }

    public var count: Int { fixtures.count }
}

/// An object's members by position, as last read: each one's bytes (`"key":value`), the nesting it
/// was read at and what it was read as. Reading a member is a function of its bytes, so where the
/// same bytes stand at the same position again (no deeper), they are taken as read then, without
/// reading the key or making a `String` (`JSONScanner.member(matches:)`).
final class MemberTemplates<Read> {
    @exclusivity(unchecked) private var seen: [TickOddsMarketCache.Seen] = []
    /// Nil: nothing remembered at that position (a container member, read its own way).
    @exclusivity(unchecked) private var reads: [Read?] = []

    /// What the member at `position` was read as, when its bytes are here (the scanner then moves past them).
    func match(_ position: Int, _ s: inout JSONScanner) -> Read? {
        guard position < reads.count, let read = reads[position], s.nesting <= seen[position].nesting,
              seen[position].bytes.withUnsafeBufferPointer({ s.member(matches: $0) }) else { return nil }
        return read
    }

    /// Remembers the member read from `start` to the scanner's position.
    func remember(_ position: Int, _ s: JSONScanner, from start: Int, _ read: Read) {
        guard position < MemberTemplates.positions else { return }
        while reads.count <= position { seen.append(TickOddsMarketCache.Seen(bytes: [], nesting: 0)); reads.append(nil) }
        seen[position].set(UnsafeBufferPointer(rebasing: s.bytes[start..<s.index]), nesting: s.nesting)
        reads[position] = read
    }

    /// Nothing is remembered at `position`.
    func forget(_ position: Int) {
        if position < reads.count { reads[position] = nil }
    }

    /// Members past this position are not remembered (an object with thousands of members is no event).
    static var positions: Int { 64 }
}

extension MemberTemplates {
    /// Reads the object here member by member, with the templates `memory` gives at each member. A
    /// member whose bytes stand at its position as last time is given to `set` as read then; any other has its key read and goes to `read`, which
    /// moves past its value and returns what it read it as (remembered for next time), or nil for a
    /// member it reads its own way (a container; nothing remembered).
    @inline(__always)
    static func readObject<Field>(_ s: inout JSONScanner, templates memory: () -> MemberTemplates<(Field, JSONScalar)>?,
                                  set: (Field, JSONScalar) -> Void,
                                  read: (inout JSONScanner) throws -> (Field, JSONScalar)?) throws where Read == (Field, JSONScalar) {
        guard try s.enterObjectBeforeKey() else { return }
        var position = -1
        repeat {
            position += 1
            // Asked at each member: a reader may find its memory only once a member tells it where.
            let templates = memory()
            if let templates, let (field, value) = templates.match(position, &s) {
                set(field, value)
                continue
            }
            let start = s.index
            try s.readMemberKey()
            if let (field, value) = try read(&s) {
                set(field, value)
                templates?.remember(position, s, from: start, (field, value))
            } else {
                templates?.forget(position)
            }
        } while try s.nextMemberBeforeKey()
    }
}

/// The two TickOdds message decoders, for the fuzzer and the benchmark to compare.
public enum TickOddsDecoders {
    /// The fast path's updates, or nil when it leaves the message to the generic decoder. With a
    /// cache, unchanged market groups are taken from it.
    public static func fast(_ bytes: [UInt8], cache: TickOddsMarketCache? = nil) -> [FeedUpdate]? {
        TickOddsFast.message(bytes, cache: cache)
    }

    /// The generic decoder (through the `JSONValue` tree).
    public static func generic(_ bytes: [UInt8]) throws -> [FeedUpdate] { try TickOddsWire.genericMessage(bytes) }

    /// True when the fast path leaves this message to the generic decoder by design (match_end).
    public static func fallsBack(_ bytes: [UInt8]) -> Bool {
        (try? JSONParser.parse(bytes: bytes))?["type"]?.string == "match_end"
    }

    /// True when the fast path, where it answers, gives exactly the generic decoder's updates (and
    /// never answers for a message the generic decoder rejects).
    public static func agree(_ bytes: [UInt8], cache: TickOddsMarketCache? = nil) -> Bool {
        guard let fast = fast(bytes, cache: cache) else { return true }
        guard let generic = try? generic(bytes) else { return false }
        return fast == generic
    }
}

