import OddsJSON
import OddsModel

/// A fixture's last event as bytes cut into its leaf members, with what each was read as.
///
/// TickOdds resends the whole event on every change, and a change alters a few members: the clock,
/// one selection's odds, the same price in the flat `odds` list and in `legacyOdds`. The next event of
/// the fixture is compared with these bytes eight at a time; only the members where the two differ
/// are read (the rest are the same bytes at the same nesting, so they are valid and mean what they
/// meant), and the event is made from the last one with those members changed. A difference
/// anywhere but inside a member's value (a member added, removed or renamed, other spacing) leaves
/// the event to the member-by-member reader, which lays the event out again.
///
/// Laid out only in the usual shape: each key once per object, `marketGroups` an array of objects
/// with `selections` arrays of objects, and the flat `odds` list after the groups. Anything else is
/// never laid out.
///
/// Its stored properties skip the dynamic exclusivity check as the market cache's do (see
/// `TickOddsMarketCache`): a layout belongs to one fixture of one connection's cache.
final class EventLayout {
    /// What a leaf member is read as. Members the event does not use are only checked (`skipped`).
    enum Kind {
        case event(EventFields.Field)
        case group(Int, MarketFields.Field)
        case selection(Int, Int, SelectionFields.Field)
        case skipped
    }

    typealias Unit = JSONLayout<Kind>.Member

    /// The event object's bytes cut into its leaf members.
    @exclusivity(unchecked) private var layout: JSONLayout<Kind>
    /// What the members were read as: the event's scalars, each group's, each selection's.
    @exclusivity(unchecked) private var fields: EventFields
    @exclusivity(unchecked) private var groups: [MarketFields]
    @exclusivity(unchecked) private var selections: [[SelectionFields]]
    /// The groups' markets as read (before a suspended event suspends their lines), and the event.
    @exclusivity(unchecked) private var markets: [Market]
    @exclusivity(unchecked) private(set) var event: Event

    private init(layout: JSONLayout<Kind>, fields: EventFields, groups: [MarketFields],
                 selections: [[SelectionFields]], markets: [Market], event: Event) {
        self.layout = layout; self.fields = fields; self.groups = groups
        self.selections = selections; self.markets = markets; self.event = event
    }

    // MARK: Laying out

    /// The layout of the event object at `start` (at `nesting`), which the member-by-member reader
    /// read as `event`; nil when it is not of the usual shape.
    static func make(_ bytes: UnsafeBufferPointer<UInt8>, start: Int, nesting: Int, event: Event) -> EventLayout? {
        var s = JSONScanner(bytes, resumingAt: start, nesting: nesting)
        var units: [Unit] = []
        var fields = EventFields()
        var groups: [MarketFields] = []
        var selections: [[SelectionFields]] = []
        var markets: [Market] = []
        func unit(_ memberStart: Int, _ valueStart: Int, _ s: JSONScanner, _ kind: Kind) {
            units.append(Unit(start: memberStart - start, valueStart: valueStart - start, end: s.index - start,
                              nesting: s.nesting, kind: kind))
        }
        do {
            let read = try s.forEachMember(unique: true) { s, memberStart, valueStart in
                if let field = EventFields.field(s) {
                    let value = try s.scalar()
                    fields.set(field, value)
                    unit(memberStart, valueStart, s, .event(field))
                } else if s.key(is: "marketGroups") {
                    guard s.isArray() else { throw Unusual() }
                    if try s.enterArray() {
                        repeat {
                            let group = try layOutGroup(&s, index: groups.count, unit: unit)
                            groups.append(group.fields)
                            selections.append(group.selections)
                            markets.append(try group.fields.market())
                        } while try s.nextElement()
                    }
                    fields.marketGroups = markets
                } else if s.key(is: "odds") {
                    // Before the groups, the flat list would be read: left to the member reader.
                    guard fields.marketGroups != nil, s.isArray() else { throw Unusual() }
                    if try s.enterArray() {
                        repeat {
                            guard s.isObject() else { throw Unusual() }
                            try layOutSkipped(&s, unit: unit)
                        } while try s.nextElement()
                    }
                } else if s.key(is: "legacyOdds"), s.isObject() {
                    try layOutSkipped(&s, unit: unit)
                } else {
                    try s.skip()
                    unit(memberStart, valueStart, s, .skipped)
                }
            }
            guard read else { return nil }
        } catch {
            return nil
        }
        // What the member reader made of the same bytes; laid out only where the two agree.
        guard (try? fields.event()) == event else { return nil }
        return EventLayout(layout: JSONLayout(bytes[start..<s.index], nesting: nesting, members: units),
                           fields: fields, groups: groups, selections: selections, markets: markets, event: event)
    }

    /// An event not of the usual shape: not laid out.
    private struct Unusual: Error {}

    /// A market group's members and its selections' members.
    private static func layOutGroup(_ s: inout JSONScanner, index g: Int,
                                    unit: (Int, Int, JSONScanner, Kind) -> Void) throws -> (fields: MarketFields, selections: [SelectionFields]) {
        var fields = MarketFields()
        var selectionFields: [SelectionFields] = []
        let read = try s.forEachMember(unique: true) { s, memberStart, valueStart in
            guard s.key(is: "selections") else {
                let field = MarketFields.field(s)
                if field == .other { try s.skip() } else { fields.set(field, try s.scalar()) }
                unit(memberStart, valueStart, s, field == .other ? .skipped : .group(g, field))
                return
            }
            guard s.isArray() else { throw Unusual() }
            guard try s.enterArray() else { return }
            repeat {
                let j = selectionFields.count
                var selection = SelectionFields()
                let read = try s.forEachMember(unique: true) { s, memberStart, valueStart in
                    let field = SelectionFields.field(s, readID: false)
                    if field == .other { try s.skip() } else { selection.set(field, try s.scalar()) }
                    unit(memberStart, valueStart, s, field == .other ? .skipped : .selection(g, j, field))
                }
                guard read else { throw Unusual() }
                fields.selections.append(try selection.selection(fallbackID: nil))
                selectionFields.append(selection)
            } while try s.nextElement()
        }
        guard read else { throw Unusual() }
        return (fields, selectionFields)
    }

    /// An object that is only checked: its members, and the members of objects in it, one unit each.
    private static func layOutSkipped(_ s: inout JSONScanner, unit: (Int, Int, JSONScanner, Kind) -> Void) throws {
        _ = try s.forEachMember(unique: false) { s, memberStart, valueStart in
            guard s.isObject() else {
                try s.skip()
                unit(memberStart, valueStart, s, .skipped)
                return
            }
            var inner = 0
            _ = try s.forEachMember(unique: false) { s, innerStart, innerValue in
                try s.skip()
                unit(innerStart, innerValue, s, .skipped)
                inner += 1
            }
            // An empty object is one unit of its own.
            if inner == 0 { unit(memberStart, valueStart, s, .skipped) }
        }
    }

    // MARK: Reading against the layout

    /// The event object at the scanner's position (after its key), read against the layout: its
    /// event and where it ends; nil when it differs other than inside member values (the scanner's
    /// caller then reads it member by member). Throws when a changed value is not JSON.
    func read(_ scanner: JSONScanner) throws -> (event: Event, end: Int)? {
        var values: [(member: Int, value: JSONScalar)] = []
        let members = layout.members
        guard let (changes, range) = try layout.changes(scanner, read: { m, s in
            if case .skipped = members[m].kind { try s.skip() } else { values.append((m, try s.scalar())) }
        }) else { return nil }
        let event = try apply(values, members)
        layout.remember(changes, scanner.bytes[range])
        return (event, range.upperBound)
    }

    /// The event with the changed members' new values.
    private func apply(_ values: [(member: Int, value: JSONScalar)], _ members: [Unit]) throws -> Event {
        var header = false
        var clock = false
        var changedGroups: [Int] = []
        var changedSelections: [(Int, Int)] = []
        for (m, value) in values {
            switch members[m].kind {
            case .event(let field):
                fields.set(field, value)
                if field == .clock { clock = true } else { header = true }
            case .group(let g, let field):
                groups[g].set(field, value)
                if changedGroups.last != g { changedGroups.append(g) }
            case .selection(let g, let j, let field):
                selections[g][j].set(field, value)
                if changedSelections.last.map({ $0 != (g, j) }) ?? true { changedSelections.append((g, j)) }
            case .skipped:
                break
            }
        }
        for (g, j) in changedSelections {
            markets[g].selections[j] = try selections[g][j].selection(fallbackID: nil)
        }
        for g in changedGroups {
            groups[g].selections = markets[g].selections
            markets[g] = try groups[g].market()
        }
        if changedSelections.isEmpty && changedGroups.isEmpty && !header && !clock { return event }
        if header || fields.status?.string == "suspended" {
            // Every field again, as the member reader builds it (a suspended event suspends its lines).
            fields.marketGroups = markets
            event = try fields.event()
        } else {
            if clock { event.clock = fields.clock?.string }
            event.markets = markets
        }
        return event
    }
}
