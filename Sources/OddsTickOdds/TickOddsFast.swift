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

    /// `readID`: the update's selection needs its id; a market group's selections do not.
    init(_ s: inout JSONScanner, readID: Bool) throws {
        guard try s.enterObject() else { return }
        repeat {
            if s.key(is: "name") { name = try s.scalar() }
            else if s.key(is: "odds") { odds = try s.scalar() }
            else if s.key(is: "side") { side = try s.scalar() }
            else if s.key(is: "suspended") { suspended = try s.scalar() }
            else if s.key(is: "handicap") { handicap = try s.scalar() }
            else if s.key(is: "price") { price = try s.scalar() }
            else if s.key(is: "line") { line = try s.scalar() }
            else if s.key(is: "isMain") { isMain = try s.scalar() }
            else if readID, s.key(is: "id") { id = try s.scalar() }
            else { try s.skip() }
        } while try s.nextMember()
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

    init(_ v: JSONValue) throws {
        name = v["name"].map(JSONScalar.init); key = v["key"].map(JSONScalar.init); period = v["period"].map(JSONScalar.init)
        selections = try (v["selections"]?.array ?? []).map { try SelectionFields($0).selection(fallbackID: nil) }
    }

    init(_ s: inout JSONScanner) throws {
        guard try s.enterObject() else { return }
        repeat {
            if s.key(is: "selections") {
                selections = []
                guard s.isArray() else { try s.skip(); continue }
                guard try s.enterArray() else { continue }
                // A bad selection throws here, where the generic decoder would throw only if this is the
                // last `selections`: the fast path then gives the message to the generic decoder.
                repeat {
                    guard s.isObject() else { throw MalformedMessage("selection without name") }
                    selections.append(try SelectionFields(&s, readID: false).selection(fallbackID: nil))
                } while try s.nextElement()
            }
            else if s.key(is: "name") { name = try s.scalar() }
            else if s.key(is: "key") { key = try s.scalar() }
            else if s.key(is: "period") { period = try s.scalar() }
            else { try s.skip() }
        } while try s.nextMember()
    }

    func market() throws -> Market {
        guard let name = name?.string else { throw MalformedMessage("market group without name") }
        let id = TickOddsWire.marketID(key: key?.string ?? sportSlug(name), period: period?.string)
        return Market(id: id, name: name, book: TickOddsWire.book, selections: selections)
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
            if byID[id] == nil { order.append(id); byID[id] = Market(id: id, name: item.marketName?.string ?? key, book: TickOddsWire.book, selections: []) }
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
    func updates(refreshed: Event, incident: (Event) throws -> Incident) throws -> [FeedUpdate] {
        guard let change = change?.string else { throw MalformedMessage("update without change") }
        let id = fixtureId?.text ?? refreshed.id
        var updates: [FeedUpdate] = []
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
                let ref = TickOddsWire.selectionRef(selection.id?.text, marketKey: marketKey?.string)
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

    /// Reads an event object; nil when the value is not an object (the generic decoder then decides).
    /// `cache` gives back the market of a group whose bytes it has seen at the same place.
    init?(_ s: inout JSONScanner, cache: TickOddsMarketCache? = nil) throws {
        // This fixture's memory in the cache, looked up once its id is known.
        var memo: TickOddsMarketCache.Fixture?
        guard s.isObject() else { try s.skip(); return nil }
        guard try s.enterObject() else { return }
        repeat {
            if s.key(is: "marketGroups") {
                guard s.isArray() else { marketGroups = nil; try s.skip(); continue }
                var groups: [Market] = []
                memo = memo ?? cache?.fixture(fixtureId?.text)
                if try s.enterArray() {
                    repeat {
                        guard s.isObject() else { return nil }
                        if let market = memo?.market(index: groups.count, at: &s) {
                            groups.append(market)
                            continue
                        }
                        let start = s.index
                        let market = try MarketFields(&s).market()
                        memo?.store(market, index: groups.count, nesting: s.nesting, bytes: s.bytes, start..<s.index)
                        groups.append(market)
                    } while try s.nextElement()
                }
                marketGroups = groups
            }
            else if s.key(is: "odds") {
                if marketGroups != nil {
                    skippedFlatOdds = true
                    flatOdds = nil
                    memo = memo ?? cache?.fixture(fixtureId?.text)
                    guard let memo, s.isArray() else { try s.skip(); continue }
                    // Entry by entry: an odds change alters one, the others repeat.
                    if try s.enterArray() {
                        var i = 0
                        repeat { try memo.skip(slot: i, &s); i += 1 } while try s.nextElement()
                    }
                    continue
                }
                guard s.isArray() else { flatOdds = nil; try s.skip(); continue }
                var flat: [FlatOddsFields] = []
                if try s.enterArray() {
                    repeat { flat.append(try FlatOddsFields(&s)) } while try s.nextElement()
                }
                flatOdds = flat
            }
            else if s.key(is: "fixtureId") { fixtureId = try s.scalar() }
            else if s.key(is: "home") { home = try s.scalar() }
            else if s.key(is: "away") { away = try s.scalar() }
            else if s.key(is: "sportName") { sportName = try s.scalar() }
            else if s.key(is: "league") { league = try s.scalar() }
            else if s.key(is: "status") { status = try s.scalar() }
            else if s.key(is: "score") { score = try s.scalar() }
            else if s.key(is: "clock") { clock = try s.scalar() }
            else if s.key(is: "period") { period = try s.scalar() }
            else if s.key(is: "startTime") { startTime = try s.scalar() }
            else if s.key(is: "sport") { sport = try s.scalar() }
            else if s.key(is: "leagueName") { leagueName = try s.scalar() }
            else if s.key(is: "competition") { competition = try s.scalar() }
            else if s.key(is: "legacyOdds"), let legacy = memo ?? cache?.fixture(fixtureId?.text) {
                memo = legacy
                try legacy.skip(slot: -1, &s)
            }
            else { try s.skip() }
        } while try s.nextMember()
        // A later non-array `marketGroups` undid the groups after the flat list was skipped: rare,
        // and the generic decoder has the whole tree.
        if marketGroups == nil && skippedFlatOdds { return nil }
    }

    func event() throws -> Event {
        guard isObject else { throw MalformedMessage("expected an event object") }
        guard let id = fixtureId?.text, !id.isEmpty else { throw MalformedMessage("event without fixtureId") }
        guard let home = home?.string else { throw MalformedMessage("event \(id) without home") }
        let away = away?.string.flatMap { $0.isEmpty ? nil : $0 }
        // A missing sport stays unknown: guessing "Soccer" would file a tennis match under football.
        let sportName = sportName?.string ?? sport?.string ?? "unknown"
        let league = league?.string ?? leagueName?.string ?? competition?.string
        var markets: [Market] = []
        if let badGroups { throw badGroups }
        if let marketGroups {
            markets = marketGroups
        } else if let flatOdds {
            markets = try FlatOddsFields.markets(flatOdds)
        }
        let statusText = status?.string
        if statusText == "suspended" {
            for m in markets.indices { for s in markets[m].selections.indices { markets[m].selections[s].suspended = true } }
        }
        return Event(provider: .tickodds, id: id, sport: sportSlug(sportName), league: league, home: home, away: away,
                     status: TickOddsWire.status(statusText),
                     startTime: startTime?.string.flatMap(TickOddsWire.parseDate),
                     score: score?.string.flatMap(Score.init(text:)), scoreText: score?.string,
                     clock: clock?.string, period: period?.string, markets: markets)
    }
}

/// The fast path for TickOdds' live messages: one pass over the frame's bytes, no value tree.
/// It handles the messages of a live feed (snapshot, match_start, update, heartbeat, other types);
/// for anything unusual (match_end, incident objects, malformed input) it returns nil and the
/// generic decoder decides, so both always agree (a differential fuzz test checks this).
enum TickOddsFast {
    static func message(_ bytes: [UInt8], cache: TickOddsMarketCache? = nil) -> [FeedUpdate]? {
        bytes.withUnsafeBufferPointer { buffer in
            var s = JSONScanner(buffer)
            return try? message(&s, cache: cache)
        }
    }

    private static func message(_ s: inout JSONScanner, cache: TickOddsMarketCache?) throws -> [FeedUpdate]? {
        guard s.isObject(), try s.enterObject() else { return nil }
        var type, incident: JSONScalar?
        var update = UpdateFields()
        var event: EventFields?
        var events: [EventFields]?
        repeat {
            if s.key(is: "event") {
                guard let e = try EventFields(&s, cache: cache) else { return nil }
                event = e
            }
            else if s.key(is: "type") { type = try s.scalar() }
            else if s.key(is: "change") { update.change = try s.scalar() }
            else if s.key(is: "fixtureId") { update.fixtureId = try s.scalar() }
            else if s.key(is: "selection") {
                if s.isObject() { update.selection = try SelectionFields(&s, readID: true) } else { update.selection = nil; try s.skip() }
            }
            else if s.key(is: "events") {
                guard s.isArray() else { return nil }
                var list: [EventFields] = []
                if try s.enterArray() {
                    repeat {
                        guard let e = try EventFields(&s, cache: cache) else { return nil }
                        list.append(e)
                    } while try s.nextElement()
                }
                events = list
            }
            else if s.key(is: "to") { update.to = try s.scalar() }
            else if s.key(is: "from") { update.from = try s.scalar() }
            else if s.key(is: "marketKey") { update.marketKey = try s.scalar() }
            else if s.key(is: "marketName") { update.marketName = try s.scalar() }
            else if s.key(is: "incident") { incident = try s.scalar() }
            else { try s.skip() }
        } while try s.nextMember()
        try s.finish()

        guard let type = type?.string else { return nil }
        switch type {
        case "snapshot":
            guard let events else { return nil }
            return [.snapshot(try events.map { try $0.event() })]
        case "match_start":
            guard let event else { return nil }
            return [.upsert(try event.event())]
        case "update":
            guard let event else { return nil }
            return try update.updates(refreshed: try event.event()) { refreshed in
                // A label; an incident object is rare and left to the generic decoder.
                guard case .string(let label)? = incident else { throw MalformedMessage("an incident object") }
                return TickOddsWire.incident(.string(label), event: refreshed)
            }
        case "heartbeat":
            return [.heartbeat]
        case "match_end":
            return nil
        default:
            return []
        }
    }
}

/// Market groups the fast path read before, by fixture and position, with the exact bytes each was
/// read from. A live event is resent whole on every change, and most of its groups are unchanged:
/// the same bytes at the same place are the same market (reading is a function of the bytes), so
/// they are compared instead of read again. Bounded: at most `maxFixtures` fixtures.
public final class TickOddsMarketCache {
    /// Bytes checked before, with the depth they were checked at: taken only where it is no deeper.
    struct Seen { var bytes: [UInt8]; var nesting: Int }

    /// What one fixture's last events held: market groups (read), flat odds entries and
    /// `legacyOdds` (skipped), by position.
    final class Fixture {
        var groups: [(seen: Seen, market: Market)] = []
        var flat: [Seen] = []
        var legacy: Seen?
        unowned let cache: TickOddsMarketCache
        init(_ cache: TickOddsMarketCache) { self.cache = cache }

        /// The market of the group at the scanner's position, when its bytes are the ones seen at
        /// this place (the scanner then moves past them).
        func market(index: Int, at s: inout JSONScanner) -> Market? {
            guard index < groups.count, s.nesting <= groups[index].seen.nesting, s.consume(groups[index].seen.bytes) else { return nil }
            cache.hits += 1
            return groups[index].market
        }

        func store(_ market: Market, index: Int, nesting: Int, bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
            let entry = (Seen(bytes: Array(UnsafeBufferPointer(rebasing: bytes[range])), nesting: nesting), market)
            if index < groups.count { groups[index] = entry } else if index == groups.count { groups.append(entry) }
        }

        /// Moves past the value here: by comparison when it repeats what this place held, else by a
        /// checked skip (remembered for next time). `slot` -1 is `legacyOdds`, others flat entries.
        func skip(slot: Int, _ s: inout JSONScanner) throws {
            let seen = slot < 0 ? legacy : (slot < flat.count ? flat[slot] : nil)
            if let seen, s.nesting <= seen.nesting, s.consume(seen.bytes) { cache.hits += 1; return }
            let nesting = s.nesting
            let range = try s.skipRange()
            let new = Seen(bytes: Array(UnsafeBufferPointer(rebasing: s.bytes[range])), nesting: nesting)
            if slot < 0 { legacy = new } else if slot < flat.count { flat[slot] = new } else if slot == flat.count { flat.append(new) }
        }
    }

    var fixtures: [String: Fixture] = [:]
    /// About 3 KB a fixture (its groups, flat odds and legacyOdds bytes): at most a few MB.
    public static let maxFixtures = 2_000
    /// Values taken from the cache instead of read or scanned (for tests and the benchmark).
    public internal(set) var hits = 0

    public init() {}

    /// The memory of one fixture (made on first use; the whole cache starts afresh past `maxFixtures`);
    /// nil while its id is not known.
    func fixture(_ id: String?) -> Fixture? {
        guard let id else { return nil }
        if let f = fixtures[id] { return f }
        if fixtures.count >= TickOddsMarketCache.maxFixtures { fixtures.removeAll() }
        let f = Fixture(self)
        fixtures[id] = f
        return f
    }

    /// Forgets a fixture that ended.
    public func remove(fixture: String) { fixtures[fixture] = nil }

    /// Keeps only these fixtures (a snapshot lists every live one).
    public func retain(_ ids: Set<String>) { fixtures = fixtures.filter { ids.contains($0.key) } }

    public var count: Int { fixtures.count }
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
