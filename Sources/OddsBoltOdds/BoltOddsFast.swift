import Foundation
import OddsJSON
import OddsModel

/// The fast path for the odds stream's data messages (initial_state, game_update, game_added,
/// line_update): one pass over the frame's bytes, no value tree. It answers only for frames it can
/// read exactly as the generic decoder does; anything else (another action, a bad or duplicate
/// outcome, a duplicate key, an odd type) returns nil and the generic decoder reads the whole frame,
/// so both always agree (a differential fuzz target checks this).
enum BoltOddsFast {
    /// What a frame says: every update of its messages, in order, and the games its books' views name.
    struct Read {
        var updates: [FeedUpdate] = []
        /// A frame read in two halves: the second half's updates, after `updates`. Handed on as a list
        /// of its own: joining the two copied half the frame's updates.
        var later: [FeedUpdate] = []
        var games: [String] = []
        /// Whether a game's books' views in a row go into one update (`BookViewRun`), for a store.
        var merging = false
        /// The views of the last game read, not yet in `updates` (merging only).
        var run: BookViewRun?

        init(merging: Bool = false) { self.merging = merging }

        /// A book's view of a game: merged into the run of its game's views, or begins the next run.
        mutating func add(_ view: consuming Event, book: String) {
            guard merging else { updates.append(.bookUpsert(view, book: book)); return }
            var view = view
            if run?.join(&view, book: book) == true { return }
            endRun()
            if let begun = BookViewRun(view, book: book) { run = begun } else { updates.append(.bookUpsert(view, book: book)) }
        }

        /// The run of views so far into `updates`: before any other update, and at the end of a read.
        mutating func endRun() {
            if let ended = run.take() { updates.append(ended.update()) }
        }

        /// Every update, in order.
        var all: [FeedUpdate] { later.isEmpty ? updates : updates + later }
    }

    /// When "now" is and the zone `info.when` is read in: given, each game's start and status are set
    /// as it is made, instead of in a second pass over the updates (`BoltOddsOddsFeed.dated`, for the
    /// generic decoder's).
    struct Dating {
        var now: Date
        var zone: TimeZone?

        /// A start read as US Eastern, read again in `zone` when one is set.
        func start(_ eastern: Date) -> Date { zone.map { BoltOddsTime.rebase(eastern, to: $0) } ?? eastern }

        /// A game whose start is still to come is scheduled, one whose start has passed is live (until
        /// the scores feeds say it ended: the store keeps their word), one without a start unknown.
        func status(startingAt start: Date?) -> EventStatus { start.map { $0 > now ? .scheduled : .live } ?? .unknown }
    }

    /// A frame's updates; nil when the frame is not for this path.
    static func frame(_ bytes: [UInt8], dating: Dating? = nil, splitAt: Int = splitSize, merging: Bool = false) -> Read? {
        bytes.withUnsafeBufferPointer { frame($0, dating: dating, splitAt: splitAt, merging: merging) }
    }

    /// A frame at least this large (the initial state's, of several MB) is read in two halves at once.
    static let splitSize = 1 << 20

    /// `frame` of bytes read in place. A frame of `splitAt` bytes or more that is an array is read in
    /// two halves at once, the second on a thread of its own, from a cut between two messages near
    /// its middle (`JSONArraySplit`); the answer is the one reading it whole gives.
    /// `merging`: a game's books' views in a row as one update (`Read.merging`).
    static func frame(_ buffer: UnsafeBufferPointer<UInt8>, dating: Dating? = nil, splitAt: Int = splitSize,
                      merging: Bool = false) -> Read? {
        guard buffer.count >= splitAt, let cut = JSONArraySplit.cut(buffer) else {
            return whole(buffer, dating: dating, stoppingAt: nil, merging: merging).read
        }
        return halves(buffer, cut: cut, dating: dating, merging: merging).read
    }

    /// The frame read from its start up to `cut` and from `cut` to its end at once; `halves` is
    /// false when the first half found no message starting at `cut` and read the whole frame.
    static func halves(_ buffer: UnsafeBufferPointer<UInt8>, cut: Int, dating: Dating?,
                       merging: Bool = false) -> (read: Read?, halves: Bool) {
        let (head, tail) = Concurrently.pair({ whole(buffer, dating: dating, stoppingAt: cut, merging: merging) },
                                                       { [buffer] in rest(buffer, from: cut, dating: dating, merging: merging) })
        // The cut was not between two messages of the array: the first half read the whole frame.
        guard head.stopped else { return (head.read, false) }
        guard var read = head.read, let more = tail else { return (nil, true) }
        read.later = more.updates
        let join = read.games.last != nil && read.games.last == more.games.first ? 1 : 0
        read.games.append(contentsOf: more.games.dropFirst(join))
        return (read, true)
    }

    /// A frame read from its start: to its end, or, given `stop`, only up to the message that starts
    /// there (`stopped`) when that index is where one does.
    static func whole(_ buffer: UnsafeBufferPointer<UInt8>, dating: Dating?, stoppingAt stop: Int?,
                      merging: Bool = false) -> (read: Read?, stopped: Bool) {
        var s = JSONScanner(buffer)
        do {
            if s.isArray() {
                guard try s.enterArray() else { try s.finish(); return (Read(), false) }
                return try messages(&s, dating: dating, stoppingAt: stop, merging: merging)
            }
            var memo = StringMemo()
            memo.dating = dating
            var templates = Templates()
            var read = Read()
            guard try message(&s, into: &read, memo: &memo, templates: &templates) else { return (nil, false) }
            try s.finish()
            return (read, false)
        } catch {
            return (nil, false)
        }
    }

    /// The messages of an array from the one that starts at `start` to the array's end (the frame's).
    static func rest(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int, dating: Dating?, merging: Bool = false) -> Read? {
        var s = JSONScanner(buffer, resumingAt: start, nesting: 1)
        return (try? messages(&s, dating: dating, stoppingAt: nil, merging: merging))?.read
    }

    /// The messages of an array from the one the scanner is at to the array's end, then the frame's
    /// end; or, given `stop`, only up to the message that starts there (`stopped`) when that index is
    /// where one does (past it, the cut was inside a message, and they are read to the end).
    static func messages(_ s: inout JSONScanner, dating: Dating?, stoppingAt stop: Int?,
                         merging: Bool = false) throws -> (read: Read?, stopped: Bool) {
        var memo = StringMemo()
        memo.dating = dating
        var templates = Templates()
        var read = Read(merging: merging)
        var stop = stop
        // About one message per 2 KB (the initial state's are 2 KB): one allocation, not log2(n) copies.
        read.updates.reserveCapacity(min(((stop ?? s.bytes.count) - s.index) / 2048 + 1, 50_000))
        repeat {
            guard try message(&s, into: &read, memo: &memo, templates: &templates) else { return (nil, false) }
            guard try s.nextElement() else { break }
            if let at = stop, s.peek() != nil {
                if s.index == at { read.endRun(); return (read, true) }
                if s.index > at { stop = nil }
            }
        } while true
        read.endRun()
        try s.finish()
        return (read, false)
    }

    /// What reading a large message's elements one at a time keeps between them: the memo, and the
    /// templates, which point into earlier elements' bytes (dropped whenever those may have moved).
    struct Session {
        var memo = StringMemo()
        var templates = Templates()
    }

    /// One message (an element of a large frame), read with what earlier ones left in `session`; nil
    /// when it is not for this path.
    static func message(_ buffer: UnsafeBufferPointer<UInt8>, session: inout Session) -> Read? {
        var s = JSONScanner(buffer)
        var read = Read()
        do {
            guard try message(&s, into: &read, memo: &session.memo, templates: &session.templates) else { return nil }
            try s.finish()
            return read
        } catch {
            return nil
        }
    }

    /// Flags for members seen once: a key seen twice leaves the frame to the generic decoder.
    struct Seen {
        var bits: UInt16 = 0
        mutating func first(_ bit: UInt16) -> Bool {
            defer { bits |= bit }
            return bits & bit == 0
        }
    }

    /// One data message's updates, appended; false when it is not one this path reads.
    static func message(_ s: inout JSONScanner, into read: inout Read, memo: inout StringMemo,
                        templates: inout Templates) throws -> Bool {
        guard s.isObject(), try s.enterObjectBeforeKey() else { return false }
        var action: String?
        var game: Game?
        var seen = Seen()
        var j = 0
        repeat {
            // The action and timestamp repeat from message to message: taken as read the last time.
            let slot = Templates.messageSlot(j)
            j += 1
            if let i = templates.match(slot, &s) {
                if templates.reads[i].field == .action {
                    guard seen.first(1) else { return false }
                    action = templates.reads[i].text
                }
                continue
            }
            let start = s.index
            try s.readMemberKey()
            if s.key(is: "action") {
                guard seen.first(1), let a = try string(&s, memo: &memo) else { return false }
                action = a
                templates.remember(slot, UnsafeBufferPointer(rebasing: s.bytes[start..<s.index]), MemberRead(field: .action, text: a))
            } else if s.key(is: "data") {
                guard seen.first(2), let g = try data(&s, memo: &memo, templates: &templates) else { return false }
                game = g
            } else {
                try s.skip()
                templates.remember(slot, UnsafeBufferPointer(rebasing: s.bytes[start..<s.index]), MemberRead(field: .other))
            }
        } while try s.nextMemberBeforeKey()
        guard let action, let (event, book) = game.take() else { return false }
        switch action {
        case "initial_state", "game_update", "game_added":
            if read.games.last != event.id { read.games.append(event.id) }
            read.add(event, book: book)
        case "line_update":
            read.endRun()
            for market in event.markets {
                for selection in market.selections {
                    read.updates.append(.price(PriceUpdate(eventID: event.id, marketID: market.id, marketName: market.name,
                                                      book: book, selection: selection)))
                }
            }
        default:
            return false
        }
        return true
    }

    /// A game at one book. A tuple, so that taking it apart moves its event (taking a struct's field
    /// copied the event: every string and list retained, then released with the struct).
    typealias Game = (event: Event, book: String)

    /// What one member of a data object or an outcome was read as. `text` is nil for null and for an
    /// empty value, which the decoders treat alike.
    struct MemberRead {
        enum Field { case odds, name, target, overUnder, line, link, league, book, label, home, away, info, action, other }
        var field: Field
        var text: String?
        var price: Price?
    }

    /// One frame's members by position, as last read. A game comes once per book and its books
    /// repeat each other's outcome keys, names, targets and lines (only odds and links differ): where
    /// the bytes at the same position are the bytes read last time, they are taken as read then
    /// (`JSONScanner.member(matches:)`), without reading the key or making a `String`. Odds and
    /// links, which differ from book to book, are not remembered.
    struct Templates {
        static let width = 8
        static let positions = 256
        /// The message's members, the data object's, then outcome `p`'s member `j` at
        /// `(p + 2) * width + j`: the bytes (empty: nothing remembered) and what they were read as.
        private(set) var spans: [UnsafeBufferPointer<UInt8>] = []
        private(set) var reads: [MemberRead] = []
        /// Outcome `p`'s key with its colon, and its text.
        private(set) var keySpans: [UnsafeBufferPointer<UInt8>] = []
        private(set) var keys: [String] = []
        /// Per outcome position: the rest of the outcome after its last odds and link, from member
        /// `tailMembers[p]` to its closing brace, as last read: its bytes, the fields it set (bits as
        /// in `Seen`) and their texts (name, target, over/under, line at `4 * p`).
        private var tailSpans: [UnsafeBufferPointer<UInt8>] = []
        private var tailMembers: [Int] = []
        private(set) var tailBits: [UInt16] = []
        private(set) var tailTexts: [String?] = []
        /// The selection id the tail made, when the members before it were only odds and links.
        private(set) var tailIDs: [String?] = []
        /// Per outcome position: how many selections the market begun there had last time (0: none
        /// begun there), so that the next book's market is made with room for exactly as many.
        private var marketSizes: [Int] = []
        /// The outcome positions the current game's markets began at, in the markets' order (emptied
        /// where a game's outcomes begin).
        var marketStarts: [Int] = []

        /// Room to make for a market begun at outcome `p`: its size last time, else two (a side and
        /// the other, over and under).
        func marketCapacity(_ p: Int) -> Int {
            p < marketSizes.count && marketSizes[p] > 0 ? marketSizes[p] : 2
        }

        /// The current game's markets' sizes, remembered by where each began.
        mutating func rememberMarketSizes(_ markets: [Market]) {
            guard marketStarts.count == markets.count else { return }
            for m in markets.indices {
                let p = marketStarts[m]
                guard p < Templates.positions else { continue }
                if marketSizes.count <= p { marketSizes.append(contentsOf: repeatElement(0, count: p + 1 - marketSizes.count)) }
                marketSizes[p] = markets[m].selections.count
            }
        }

        /// The position when outcome `p`'s tail starts at `member` and the scanner is at its bytes
        /// (then moved past them, out of the outcome).
        func matchTail(_ p: Int, member: Int, _ s: inout JSONScanner) -> Int? {
            guard p < tailSpans.count, tailMembers[p] == member, s.objectRest(matches: tailSpans[p]) else { return nil }
            return p
        }

        mutating func rememberTail(_ p: Int, member: Int, span: UnsafeBufferPointer<UInt8>, bits: UInt16,
                                   texts: (String?, String?, String?, String?), id: String?) {
            guard p < Templates.positions else { return }
            while tailSpans.count <= p {
                tailSpans.append(UnsafeBufferPointer(start: nil, count: 0))
                tailMembers.append(-1)
                tailBits.append(0)
                tailTexts.append(contentsOf: [nil, nil, nil, nil])
                tailIDs.append(nil)
            }
            tailIDs[p] = id
            tailSpans[p] = span
            tailMembers[p] = member
            tailBits[p] = bits
            tailTexts[4 * p] = texts.0
            tailTexts[4 * p + 1] = texts.1
            tailTexts[4 * p + 2] = texts.2
            tailTexts[4 * p + 3] = texts.3
        }

        // The message's and the data object's slots come first, so that a small frame (a line
        // update) makes small arrays.
        static func messageSlot(_ j: Int) -> Int? { j < width ? j : nil }

        static func dataSlot(_ j: Int) -> Int? { j < width ? width + j : nil }

        static func outcomeSlot(_ p: Int, _ j: Int) -> Int? {
            j < width && p < positions ? (p + 2) * width + j : nil
        }

        /// The slot's member when the scanner is at the same bytes (then moved past them).
        func match(_ slot: Int?, _ s: inout JSONScanner) -> Int? {
            guard let slot, slot < spans.count, spans[slot].count > 0, s.member(matches: spans[slot]) else { return nil }
            return slot
        }

        mutating func remember(_ slot: Int?, _ span: UnsafeBufferPointer<UInt8>, _ read: MemberRead) {
            guard let slot else { return }
            if spans.count <= slot {
                let empty = MemberRead(field: .other)
                spans.append(contentsOf: repeatElement(UnsafeBufferPointer(start: nil, count: 0), count: slot + 1 - spans.count))
                reads.append(contentsOf: repeatElement(empty, count: slot + 1 - reads.count))
            }
            spans[slot] = span
            reads[slot] = read
        }

        /// True (and the scanner past it) when outcome `p`'s key is the one read last time: its text is `keys[p]`.
        func key(_ p: Int, _ s: inout JSONScanner) -> Bool {
            p < keySpans.count && s.key(matches: keySpans[p])
        }

        mutating func rememberKey(_ p: Int, _ span: UnsafeBufferPointer<UInt8>, _ key: String) {
            guard p < Templates.positions else { return }
            if keySpans.count <= p {
                keySpans.append(contentsOf: repeatElement(UnsafeBufferPointer(start: nil, count: 0), count: p + 1 - keySpans.count))
                keys.append(contentsOf: repeatElement("", count: p + 1 - keys.count))
            }
            keySpans[p] = span
            keys[p] = key
        }
    }

    /// A data object with every field as the generic decoder requires it; nil for anything else.
    static func data(_ s: inout JSONScanner, memo: inout StringMemo, templates: inout Templates) throws -> Game? {
        guard s.isObject(), try s.enterObjectBeforeKey() else { return nil }
        var league, book, label, home, away, when: String?
        var markets: [Market] = []
        var seen = Seen()
        var j = 0
        repeat {
            let slot = Templates.dataSlot(j)
            let field: MemberRead.Field
            var text: String?
            if let i = templates.match(slot, &s) {
                field = templates.reads[i].field
                text = templates.reads[i].text
            } else {
                let start = s.index
                try s.readMemberKey()
                if s.key(is: "outcomes") {
                    guard seen.first(1), s.isObject() else { return nil }
                    guard let read = try outcomes(&s, book: book, memo: &memo, templates: &templates) else { return nil }
                    markets = read
                    // The book may come after the outcomes: their markets name it once known (below).
                    if book == nil { seen.bits |= 64 }
                    j += 1
                    continue
                }
                if s.key(is: "sport") { field = .league }
                else if s.key(is: "sportsbook") { field = .book }
                else if s.key(is: "game") { field = .label }
                else if s.key(is: "home_team") { field = .home }
                else if s.key(is: "away_team") { field = .away }
                else if s.key(is: "info") { field = .info }
                else { field = .other }
                if field == .other {
                    try s.skip()
                } else if field == .info {
                    // Only its `when` is read (a string, as the generic decoder takes it); the rest is checked.
                    text = try infoWhen(&s, memo: &memo)
                } else {
                    guard let v = try string(&s, memo: &memo) else { return nil }
                    text = v
                }
                templates.remember(slot, UnsafeBufferPointer(rebasing: s.bytes[start..<s.index]), MemberRead(field: field, text: text))
            }
            switch field {
            case .league: guard seen.first(2) else { return nil }; league = text
            case .book: guard seen.first(4) else { return nil }; book = text
            case .label: guard seen.first(8) else { return nil }; label = text
            case .home: guard seen.first(16) else { return nil }; home = text
            case .away: guard seen.first(32) else { return nil }; away = text
            case .info: when = text
            default: break
            }
            j += 1
        } while try s.nextMemberBeforeKey()
        guard let book, !book.isEmpty, let label, !label.isEmpty, let home, !home.isEmpty, let away, !away.isEmpty else {
            return nil
        }
        if seen.bits & 64 != 0 { for i in markets.indices { markets[i].book = book } }
        let start = when.flatMap { memo.start($0) }
        let status = memo.dating?.status(startingAt: start) ?? .live
        let event = Event(provider: .boltodds, id: label, sport: league.map { memo.sport($0) } ?? "unknown", league: league,
                          home: home, away: away, status: status, startTime: start, markets: markets)
        return (event, book)
    }

    /// The `when` of an `info` value, as the generic decoder reads it: a string member of an object
    /// (the last, with duplicates); nil for anything else. The value is skipped (validated) whole.
    static func infoWhen(_ s: inout JSONScanner, memo: inout StringMemo) throws -> String? {
        guard s.isObject() else { try s.skip(); return nil }
        var when: String?
        guard try s.enterObjectBeforeKey() else { return nil }
        repeat {
            // The usual members by their plain keys; the game's `when` shared by its books (one `String`).
            if s.readMemberKey(ifLiteral: "when") {
                when = try string(&s, memo: &memo)
                continue
            }
            if s.readMemberKey(ifLiteral: "id") || s.readMemberKey(ifLiteral: "game") || s.readMemberKey(ifLiteral: "link") {
                try s.skip()
                continue
            }
            try s.readMemberKey()
            if s.key(is: "when") {
                if case .string(let v) = try s.scalar() { when = v } else { when = nil }
            } else {
                try s.skip()
            }
        } while try s.nextMemberBeforeKey()
        return when
    }

    /// Outcomes as markets, in order of first appearance; nil when any outcome is not plainly good.
    static func outcomes(_ s: inout JSONScanner, book: String?, memo: inout StringMemo,
                         templates: inout Templates) throws -> [Market]? {
        var markets: [Market] = []
        markets.reserveCapacity(4)
        guard try s.enterObjectBeforeKey() else { return [] }
        templates.marketStarts.removeAll(keepingCapacity: true)
        var p = 0
        repeat {
            // Nil: the template's (most outcomes never use their key: they name a target or side).
            var key: String?
            if !templates.key(p, &s) {
                let start = s.index
                try s.readMemberKey()
                let text = s.currentKeyBytes.map { memo.string($0) } ?? s.currentKey
                templates.rememberKey(p, UnsafeBufferPointer(rebasing: s.bytes[start..<s.index]), text)
                key = text
            }
            guard s.isObject(), try outcome(&s, key: key, position: p, into: &markets, book: book, memo: &memo,
                                            templates: &templates) else { return nil }
            p += 1
        } while try s.nextMemberBeforeKey()
        templates.rememberMarketSizes(markets)
        return markets
    }

    /// One outcome, as `BoltOddsWire.outcome` reads it; nil for anything it would skip or read differently.
    static func outcome(_ s: inout JSONScanner, key: String?, position p: Int, into markets: inout [Market], book: String?,
                        memo: inout StringMemo, templates: inout Templates) throws -> Bool {
        guard try s.enterObjectBeforeKey() else {
            let key = key ?? templates.keys[p]
            return add(Selection(id: key, name: key, price: nil, suspended: true), market: key, to: &markets, book: book,
                       position: p, templates: &templates)
        }
        var name, target, overUnder, line: String?
        var link: DeepLink?
        var price: Price?
        var seen = Seen()
        // The members after the last odds and link (which differ from book to book), to remember.
        var tailMember = 0, tailStart = s.index
        var tailBits: UInt16 = 0
        var j = 0
        var open = true
        var tailTaken = false
        while open {
            if let t = templates.matchTail(p, member: j, &s) {
                let bits = templates.tailBits[t]
                guard seen.bits & bits == 0 else { return false }
                let k = t * 4
                // Nothing but odds and links before the tail: the selection is the tail's, as made last time.
                if seen.bits & 30 == 0, let id = templates.tailIDs[t] {
                    // Made in the call, the price and link moved out of their variables (`take`): each
                    // copy is every string of it retained, then released.
                    let suspended = price == nil
                    return add(Selection(id: id, name: id, line: bits & 16 != 0 ? templates.tailTexts[k + 3] : nil,
                                         price: price.take(), suspended: suspended, deepLink: link.take()),
                               market: templates.tailTexts[k] ?? key ?? templates.keys[p], to: &markets, book: book,
                               position: p, templates: &templates)
                }
                seen.bits |= bits
                if bits & 2 != 0 { name = templates.tailTexts[k] }
                if bits & 4 != 0 { target = templates.tailTexts[k + 1] }
                if bits & 8 != 0 { overUnder = templates.tailTexts[k + 2] }
                if bits & 16 != 0 { line = templates.tailTexts[k + 3] }
                tailTaken = true
                break
            }
            // Odds and links, in every outcome and different in each: read here, not remembered.
            if s.readMemberKey(ifLiteral: "odds") {
                guard seen.first(1), case .some(let read) = try odds(&s, memo: &memo) else { return false }
                price = read
                j += 1
                open = try s.nextMemberBeforeKey()
                tailMember = j; tailStart = s.index; tailBits = 0
                continue
            }
            if s.readMemberKey(ifLiteral: "link") {
                guard seen.first(32) else { return false }
                // Most links are the last one's head with another tail: found in place.
                if let fast = memo.link(&s) {
                    link = fast
                } else {
                    guard let read = try text(&s, numbers: false) else { return false }
                    link = Text.nonEmpty(read)?.deepLink(&memo)
                }
                j += 1
                open = try s.nextMemberBeforeKey()
                tailMember = j; tailStart = s.index; tailBits = 0
                continue
            }
            let slot = Templates.outcomeSlot(p, j)
            var member: MemberRead
            if let i = templates.match(slot, &s) {
                member = templates.reads[i]
            } else {
                let start = s.index
                try s.readMemberKey()
                guard let m = try outcomeMember(&s, memo: &memo) else { return false }
                member = m
                if m.field != .odds && m.field != .link {
                    templates.remember(slot, UnsafeBufferPointer(rebasing: s.bytes[start..<s.index]), m)
                }
            }
            var bit: UInt16 = 0
            switch member.field {
            case .odds: guard seen.first(1) else { return false }; price = member.price.take()
            case .name: guard seen.first(2) else { return false }; name = member.text.take(); bit = 2
            case .target: guard seen.first(4) else { return false }; target = member.text.take(); bit = 4
            case .overUnder: guard seen.first(8) else { return false }; overUnder = member.text.take().map(BoltOddsWire.totalSide); bit = 8
            case .line: guard seen.first(16) else { return false }; line = member.text.take(); bit = 16
            case .link: guard seen.first(32) else { return false }; link = member.text.take().map(DeepLink.init)
            default: break
            }
            tailBits |= bit
            let restart = member.field == .odds || member.field == .link
            j += 1
            open = try s.nextMemberBeforeKey()
            if restart { tailMember = j; tailStart = s.index; tailBits = 0 }
        }
        let id: String
        switch (target, overUnder) {
        case (nil, nil): id = key ?? templates.keys[p]
        case (let t?, nil): id = t
        case (nil, let ou?): id = ou
        case (let t?, let ou?): id = memo.joined(t, ou)
        }
        if !tailTaken, tailMember < j {
            // The tail's fields were set last, so their values are the outcome's; when the members
            // before it set none of them (odds and links only) and it names a target or side, so is
            // the selection's id (without one, the id is the outcome's key, which may differ).
            let headOnly = seen.bits & ~tailBits & 30 == 0 && (target != nil || overUnder != nil)
            templates.rememberTail(p, member: tailMember, span: UnsafeBufferPointer(rebasing: s.bytes[tailStart..<s.index]),
                                   bits: tailBits, texts: (name, target, overUnder, line), id: headOnly ? id : nil)
        }
        let suspended = price == nil
        return add(Selection(id: id, name: id, line: line.take(), price: price.take(), suspended: suspended, deepLink: link.take()),
                   market: name ?? key ?? templates.keys[p], to: &markets, book: book, position: p, templates: &templates)
    }

    /// Most markets, and selections in one market, a game may have for the fast path: its searches
    /// are linear (fast for real games), so a larger one goes to the generic decoder, which indexes.
    static let linearLimit = 256

    /// Files a selection under its market (markets in order of first appearance); false for a
    /// duplicate outcome, which is the generic decoder's to skip and count, or a game past
    /// `linearLimit`.
    static func add(_ selection: consuming Selection, market: String, to markets: inout [Market], book: String?,
                    position p: Int, templates: inout Templates) -> Bool {
        // Outcomes of one market mostly come together: the last market first.
        let last = markets.count - 1
        if let i = last >= 0 && markets[last].id == market ? last : markets.firstIndex(where: { $0.id == market }) {
            guard markets[i].selections.count < linearLimit else { return false }
            // Read in place: `markets[i].selections[k]` copied each selection it compared (its strings retained).
            let duplicate = markets.withUnsafeBufferPointer { ms in
                ms[i].selections.withUnsafeBufferPointer { ss in ss.contains { $0.isSame(as: selection) } }
            }
            if duplicate { return false }
            markets[i].selections.append(consume selection)
        } else {
            guard markets.count < linearLimit else { return false }
            // Room for as many as the market begun here had at the last book (else two): grown one by
            // one, a large state regrew every market's list many times; room for more than needed (four for
            // two) is memory touched for the first time.
            var selections: [Selection] = []
            selections.reserveCapacity(templates.marketCapacity(p))
            selections.append(consume selection)
            markets.append(Market(id: market, name: market, book: book, selections: selections))
            templates.marketStarts.append(p)
        }
        return true
    }

    /// The member the scanner is at (its key read), as `BoltOddsWire.outcome` reads it: empty texts
    /// as nil, a line checked as a number; nil for anything it would skip or read differently.
    static func outcomeMember(_ s: inout JSONScanner, memo: inout StringMemo) throws -> MemberRead? {
        if s.key(is: "odds") {
            guard case .some(let price) = try odds(&s, memo: &memo) else { return nil }
            return MemberRead(field: .odds, price: price)
        }
        let field: MemberRead.Field
        if s.key(is: "outcome_name") { field = .name }
        else if s.key(is: "outcome_target") { field = .target }
        else if s.key(is: "outcome_over_under") { field = .overUnder }
        else if s.key(is: "outcome_line") { field = .line }
        else if s.key(is: "link") { field = .link }
        else { try s.skip(); return MemberRead(field: .other) }
        return try textMember(&s, field: field, memo: &memo)
    }

    /// An odds value (its key read): `.some(nil)` for no price, nil for what the generic decoder reads otherwise.
    static func odds(_ s: inout JSONScanner, memo: inout StringMemo) throws -> Price?? {
        if let b = s.plainString() { return memo.price(b) }
        switch try s.scalar() {
        case .string(let v):
            // The generic decoder's rules ("" is no price); what it would skip leaves the frame to it.
            do { return .some(try BoltOddsWire.americanPrice(.string(v), key: "")) } catch { return nil }
        case .null: return .some(nil)
        default: return nil
        }
    }

    /// A name, target, over/under, line or link value (its key read).
    static func textMember(_ s: inout JSONScanner, field: MemberRead.Field, memo: inout StringMemo) throws -> MemberRead? {
        var m = MemberRead(field: field)
        guard let read = try text(&s, numbers: field != .name && field != .link) else { return nil }
        guard let t = Text.nonEmpty(read) else { return m }
        if field == .line {
            switch t {
            case .bytes(let b): guard Rational(decimalBytes: b) != nil else { return nil }
            case .string(let v): guard Rational(decimalText: v) != nil else { return nil }
            }
        }
        m.text = field == .link ? t.link : t.string(&memo)
        return m
    }

    /// A string or number member as read: its bytes in the frame (printable ASCII, no escapes), or
    /// decoded text.
    enum Text {
        case bytes(UnsafeBufferPointer<UInt8>)
        case string(String)

        var isEmpty: Bool {
            switch self {
            case .bytes(let b): return b.isEmpty
            case .string(let v): return v.isEmpty
            }
        }

        func string(_ memo: inout StringMemo) -> String {
            switch self {
            case .bytes(let b): return memo.string(b)
            case .string(let v): return v
            }
        }

        /// A deep link's text: one per outcome and book, so made as it is, not remembered.
        var link: String {
            switch self {
            case .bytes(let b): return String(decoding: b, as: UTF8.self)
            case .string(let v): return v
            }
        }

        /// A deep link split as `DeepLink` splits it: its head (the game's page at the book, the same
        /// for all its outcomes) shared through the memo, its short tail inline.
        func deepLink(_ memo: inout StringMemo) -> DeepLink {
            switch self {
            case .bytes(let b): return DeepLink(bytes: b) { memo.linkHead($0) }
            case .string(let v): return DeepLink(v)
            }
        }

        /// Nil for an empty text, as the generic decoder drops empty names, targets and lines.
        static func nonEmpty(_ t: Text??) -> Text? {
            guard case .some(.some(let t)) = t, !t.isEmpty else { return nil }
            return t
        }
    }

    /// A string member's text (shared through the memo); nil for another type.
    static func string(_ s: inout JSONScanner, memo: inout StringMemo) throws -> String? {
        if let b = s.plainString() { return memo.string(b) }
        guard case .string(let v) = try s.scalar() else { return nil }
        return v
    }

    /// A string (or, when `numbers`, a number's text) as `.some(text)`, null as `.some(nil)`; nil
    /// for another type, which the generic decoder reads differently.
    static func text(_ s: inout JSONScanner, numbers: Bool) throws -> Text?? {
        if let b = s.plainString() { return .some(.bytes(b)) }
        switch try s.scalar() {
        case .string(let v): return .some(.string(v))
        case .number(let v) where numbers: return .some(.string(v))
        case .null: return .some(nil)
        default: return nil
        }
    }
}

/// One frame's strings by their bytes. The initial state sends each game once per book, so its
/// outcome keys, names, teams and label repeat: the second book on shares the first one's `String`
/// instead of allocating its own. Short strings are stored inline by Swift and not remembered.
struct StringMemo {
    private var lastWhen: String?
    private var lastStart: Date?
    var dating: BoltOddsFast.Dating?

    /// `BoltOddsTime.eastern` of a game's `when` (read again in the dating's zone, if any),
    /// remembered for the next book of the same game.
    mutating func start(_ when: String) -> Date? {
        if when == lastWhen { return lastStart }
        lastWhen = when
        lastStart = BoltOddsTime.eastern(when).map { dating?.start($0) ?? $0 }
        return lastStart
    }

    private var lastLinkHead: String?
    /// Its bytes, to find it again in the frame (`link`).
    private var lastLinkHeadBytes: [UInt8] = []

    /// A deep link's head: the same for the outcomes of one game at one book, which come together, so
    /// the last one is kept (compared, not hashed).
    mutating func linkHead(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        if let last = lastLinkHead, lastLinkHeadBytes.count == bytes.count, let p = bytes.baseAddress,
           lastLinkHeadBytes.withUnsafeBufferPointer({ memcmp($0.baseAddress!, p, bytes.count) == 0 }) {
            return last
        }
        let s = String(decoding: bytes, as: UTF8.self)
        lastLinkHead = s
        lastLinkHeadBytes.removeAll(keepingCapacity: true)
        lastLinkHeadBytes.append(contentsOf: bytes)
        return s
    }

    /// The high bit of each byte of `x` (little-endian) that cannot be in a link's tail: a quote, a
    /// backslash, `=`, `/`, a control character or not ASCII (`JSONScanner.plainRunEnd`'s test with
    /// the two separators added). Borrows can mark bytes above a marked one; the lowest mark is exact.
    @inline(__always)
    static func unusual(_ x: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        let q = x ^ (ones &* 0x22), bs = x ^ (ones &* 0x5C), eq = x ^ (ones &* 0x3D), sl = x ^ (ones &* 0x2F)
        let zeros = (q &- ones) & ~q | (bs &- ones) & ~bs | (eq &- ones) & ~eq | (sl &- ones) & ~sl
        return (zeros | (x &- ones &* 0x20) & ~x | x) & highs
    }

    /// The link value the scanner is at (its key read), when it is the last link's head and then a
    /// tail of 1 to 15 plain bytes (printable ASCII, no escape) without `=` or `/`: exactly the
    /// `DeepLink` that reading the string and splitting it gives, with the scanner past it. Only the
    /// tail is scanned, eight bytes at a time (the head is compared with `memcmp`). Nil, with nothing
    /// consumed, otherwise.
    mutating func link(_ s: inout JSONScanner) -> DeepLink? {
        let h = lastLinkHeadBytes.count
        let b = s.bytes, start = s.index + 1
        guard h > 0, let head = lastLinkHead, let base = b.baseAddress, start + h < b.count, base[start - 1] == UInt8(ascii: "\""),
              lastLinkHeadBytes.withUnsafeBufferPointer({ memcmp($0.baseAddress!, base + start, h) == 0 }) else { return nil }
        let tail = start + h
        var i = tail
        if tail + 16 <= b.count {
            // The first byte that cannot be in a tail must be the closing quote.
            let low = StringMemo.unusual(UnsafeRawPointer(base + tail).loadUnaligned(as: UInt64.self).littleEndian)
            if low != 0 {
                i += low.trailingZeroBitCount / 8
            } else {
                let high = StringMemo.unusual(UnsafeRawPointer(base + tail + 8).loadUnaligned(as: UInt64.self).littleEndian)
                guard high != 0 else { return nil }
                i += 8 + high.trailingZeroBitCount / 8
            }
        } else {
            // Near the frame's end, byte by byte.
            while i < b.count {
                let c = base[i]
                if c < 0x20 || c >= 0x80 || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") || c == UInt8(ascii: "=") || c == UInt8(ascii: "/") { break }
                i += 1
            }
        }
        guard i < b.count, base[i] == UInt8(ascii: "\""), i > tail, i - tail <= 15 else { return nil }
        s.skipChecked(to: i + 1)
        // The head ends with `=` or `/` (it was cut there), and the tail has neither.
        return DeepLink(splitHead: head, tail: UnsafeBufferPointer(start: base + tail, count: i - tail))
    }

    private var slots: [String?] = []
    private var longStrings = 0
    private var lastLeague: String?
    private var lastSport = "unknown"

    mutating func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard bytes.count > 15 else { return String(decoding: bytes, as: UTF8.self) }
        if slots.isEmpty {
            // Worth it only for a frame of many strings (the initial state), not a line update.
            longStrings += 1
            if longStrings < 32 { return String(decoding: bytes, as: UTF8.self) }
            slots = Array(repeating: nil, count: 1024)
        }
        var h: UInt64 = 14_695_981_039_346_656_037
        for b in bytes { h = (h ^ UInt64(b)) &* 1_099_511_628_211 }
        let slot = Int(truncatingIfNeeded: h >> 54)
        if let s = slots[slot], s.utf8.count == bytes.count,
           s.utf8.withContiguousStorageIfAvailable({ memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }) == true {
            return s
        }
        let s = String(decoding: bytes, as: UTF8.self)
        slots[slot] = s
        return s
    }

    /// Remembered prices (`PriceTable`), borrowed once this memo has read enough prices to be worth it.
    private var priceTable: PriceTable.Loan?
    private var pricesRead = 0

    /// `BoltOddsWire.americanPrice(bytes:)` of a plain string's bytes, remembered by its text: a full
    /// subscription's hundreds of thousands of odds are a few thousand distinct texts.
    mutating func price(_ bytes: UnsafeBufferPointer<UInt8>) -> Price?? {
        // Up to 8 bytes of printable ASCII (no NUL) pack into a key of their own.
        guard bytes.count >= 1, bytes.count <= 8 else { return BoltOddsWire.americanPrice(bytes: bytes) }
        if priceTable == nil {
            // Worth it only for a frame of many prices (the initial state), not a line update.
            pricesRead += 1
            if pricesRead < 64 { return BoltOddsWire.americanPrice(bytes: bytes) }
            priceTable = PriceTable.Loan()
        }
        var key: UInt64 = 0
        var i = bytes.count
        while i > 0 { i -= 1; key = key << 8 | UInt64(bytes[i]) }
        let table = priceTable!.table
        if let known = table.price(key) { return .some(known) }
        let read = BoltOddsWire.americanPrice(bytes: bytes)
        if case .some(let price) = read { table.remember(key, price) }
        return read
    }

    /// "Team Over": the target and the over/under with a space, as the generic decoder joins them.
    mutating func joined(_ a: String, _ b: String) -> String {
        var a = a, b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: x.count + 1 + y.count) { buffer in
                    var i = 0
                    for c in x { buffer[i] = c; i += 1 }
                    buffer[i] = 0x20; i += 1
                    for c in y { buffer[i] = c; i += 1 }
                    return string(UnsafeBufferPointer(buffer))
                }
            }
        }
    }

    /// The project's sport for a competition, remembered for the last one (a frame is mostly one after another).
    mutating func sport(_ league: String) -> String {
        if league != lastLeague { lastLeague = league; lastSport = BoltOddsLeagues.sport(league) }
        return lastSport
    }
}

/// Prices remembered by their text (up to 8 bytes packed in a key, never 0): open addressing, a short
/// run of slots from the key's hash, the keys apart from the prices so that a look-up reads one line
/// of keys. A table only caches what `BoltOddsWire.americanPrice(bytes:)` answers for a text, so
/// it is lent from frame to frame (`Loan`) rather than made and warmed again for each: a direct-mapped
/// table, one per half-frame, missed many of a BoltOdds state's odds (few distinct texts, but two in a
/// slot evicting each other), and its memory was touched for the first time at each half-frame.
final class PriceTable: @unchecked Sendable {  // used by one thread at a time: the one it is lent to
    static let capacity = 4096
    /// Slots looked at from a key's own before it is taken as absent.
    static let run = 8
    // Memory of the table's own (`let` pointers): a class's arrays are checked for exclusive access
    // at each use, which cost more than the look-up itself.
    private let keys: UnsafeMutablePointer<UInt64>
    private let prices: UnsafeMutablePointer<Price?>
    /// Keys held; past three quarters of the capacity, no more are taken.
    private(set) var count = 0

    init() {
        keys = .allocate(capacity: PriceTable.capacity)
        keys.initialize(repeating: 0, count: PriceTable.capacity)
        prices = .allocate(capacity: PriceTable.capacity)
        prices.initialize(repeating: nil, count: PriceTable.capacity)
    }

    deinit {
        prices.deinitialize(count: PriceTable.capacity)
        prices.deallocate()
        keys.deallocate()
    }

    /// The price remembered for `key` (`.some(nil)`: the text is no price), or nil when none is.
    @inline(__always)
    func price(_ key: UInt64) -> Price?? {
        var slot = PriceTable.home(key)
        for _ in 0..<PriceTable.run {
            let k = keys[slot]
            if k == key { return .some(prices[slot]) }
            if k == 0 { return nil }
            slot = (slot + 1) & (PriceTable.capacity - 1)
        }
        return nil
    }

    /// Remembers `price` for `key`, in the first free slot of its run; when the run is full or the
    /// table three quarters full, it is not remembered.
    func remember(_ key: UInt64, _ price: Price?) {
        guard key != 0, count < PriceTable.capacity * 3 / 4 else { return }
        var slot = PriceTable.home(key)
        for _ in 0..<PriceTable.run {
            if keys[slot] == key { return }
            if keys[slot] == 0 {
                keys[slot] = key
                prices[slot] = price
                count += 1
                return
            }
            slot = (slot + 1) & (PriceTable.capacity - 1)
        }
    }

    /// The slot a key's run starts at.
    @inline(__always)
    static func home(_ key: UInt64) -> Int { Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 52) }

    /// Tables given back, for the next frame: at most `limit` (one per thread that decodes at once).
    final class Pool: @unchecked Sendable {  // `spare` is behind `lock`
        private let lock = NSLock()
        private var spare: [PriceTable] = []
        let limit: Int

        init(limit: Int) { self.limit = limit }

        /// A table given back earlier, else a new one.
        func lend() -> PriceTable {
            lock.lock(); defer { lock.unlock() }
            return spare.popLast() ?? PriceTable()
        }

        func giveBack(_ table: PriceTable) {
            lock.lock(); defer { lock.unlock() }
            if spare.count < limit { spare.append(table) }
        }

        /// Tables waiting to be lent.
        var spareCount: Int { lock.lock(); defer { lock.unlock() }; return spare.count }
    }

    /// The decoders' pool.
    static let pool = Pool(limit: 4)

    /// A table borrowed for as long as the loan is held (a memo's life), given back when it ends.
    final class Loan {
        let table: PriceTable
        private let pool: Pool
        init(from pool: Pool = PriceTable.pool) {
            self.pool = pool
            table = pool.lend()
        }
        deinit { pool.giveBack(table) }
    }
}
