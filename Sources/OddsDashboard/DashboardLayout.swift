import Foundation
import OddsModel
import OddsOutput
import OddsStore
import OddsValue

/// Turns a model into a screen: pure, so frames can be tested as text.
public enum DashboardLayout {
    public static let minimumWidth = 60
    public static let minimumHeight = 12

    /// Lines of the incident ticker for a screen height.
    static func tickerLines(height: Int) -> Int { height >= 30 ? 5 : height >= 20 ? 3 : 1 }

    /// Table body rows for a screen height: everything but header, column titles, ticker and footer.
    static func tableRows(height: Int) -> Int { height - 2 - (tickerLines(height: height) + 1) - 1 }

    public static func layout(_ model: DashboardModel) -> Screen {
        layout(model, width: model.width, height: model.height)
    }

    public static func layout(_ model: DashboardModel, width: Int, height: Int) -> Screen {
        var screen = Screen(width: width, height: height)
        guard width >= minimumWidth, height >= minimumHeight else {
            let message = "terminal too small: \(width)×\(height), need \(minimumWidth)×\(minimumHeight)"
            let lines = [message, "q quits"]
            for (i, line) in lines.enumerated() where i < height {
                let w = TextWidth.width(of: line)
                screen.put(line, x: max(0, (width - w) / 2), y: max(0, height / 2 - 1) + i, attributes: i == 0 ? .bold : [])
            }
            return screen
        }
        header(model, &screen)
        switch model.mode {
        case .table:
            table(model, &screen)
            ticker(model, &screen)
        case .detail(let key):
            detail(model, key: key, &screen)
        }
        footer(model, &screen)
        if model.showHelp { help(&screen) }
        return screen
    }

    // MARK: Header and footer

    /// The feed's state: one label, or with several connections each one by name ("odds ● live ·
    /// pbp reconnecting in 3s (attempt 2)"), coloured by the worst.
    static func connectionLabel(_ model: DashboardModel, room: Int = .max) -> (String, CellAttributes) {
        // A recording has no connection to tell of: it is being replayed, or it has ended.
        if model.replay {
            guard let ended = model.feedEnded else { return ("▶ replaying", .green) }
            return ended == DashboardModel.feedEndedNormally ? ("replay ended", .dim) : ("stopped: \(ended)", [.red, .bold])
        }
        if model.isFused { return providersLabel(model, room: room) }
        if let ended = model.feedEnded, case .stopped = model.connection {
            return ("stopped: \(ended)", [.red, .bold])
        }
        let connections = model.connections
        guard connections.count > 1 else {
            return label(model.connection, since: connections.first?.since ?? model.now, model)
        }
        let (_, worst) = label(model.connection, since: model.now, model)
        return (connections.map { "\($0.name) " + label($0.state, since: $0.since, model).0 }.joined(separator: ", "), worst)
    }

    /// A fused view's providers, each with its state ("pulsescore ● · tickodds ↻4s · sportsapi ✕"), coloured by
    /// the best (the view lives while one provider does); when that does not fit `room`, counts by state.
    static func providersLabel(_ model: DashboardModel, room: Int) -> (String, CellAttributes) {
        let states = model.providerStates
        func mark(_ s: (provider: ProviderID, state: ConnectionState, since: Date, stale: Bool)) -> String {
            switch s.state {
            case .live: return s.stale ? "stale" : "●"
            case .connecting: return "…"
            case .degraded: return "◐"
            case .stale: return "stale"
            case .reconnecting(let seconds, _, _): return "↻\(secondsLeft(seconds, since: s.since, model))s"
            case .stopped: return "✕"
            }
        }
        let best = model.connection
        let attributes: CellAttributes
        switch best {
        case .live: attributes = model.feedIsStale ? [.yellow, .bold] : .green
        case .stopped: attributes = [.red, .bold]
        default: attributes = .yellow
        }
        let full = states.map { "\($0.provider.rawValue) \(mark($0))" }.joined(separator: " · ")
        if TextWidth.width(of: full) <= room { return (full, attributes) }
        var counts: [(String, Int)] = []
        for s in states {
            let name = s.stale ? "stale" : s.state.label
            if let i = counts.firstIndex(where: { $0.0 == name }) { counts[i].1 += 1 } else { counts.append((name, 1)) }
        }
        return ("\(states.count) feeds: " + counts.map { "\($0.1) \($0.0)" }.joined(separator: ", "), attributes)
    }

    /// Whole seconds left of a reconnection wait of `seconds` that began at `since`.
    static func secondsLeft(_ seconds: Double, since: Date, _ model: DashboardModel) -> Int {
        max(0, Int((seconds - model.now.timeIntervalSince(since)).rounded(.up)))
    }

    static func label(_ state: ConnectionState, since: Date, _ model: DashboardModel) -> (String, CellAttributes) {
        switch state {
        case .connecting: return ("connecting", .yellow)
        case .live: return model.feedIsStale ? ("stale", [.yellow, .bold]) : ("● live", .green)
        case .reconnecting(let seconds, let attempt, _):
            return ("reconnecting in \(secondsLeft(seconds, since: since, model))s (attempt \(attempt))", [.yellow, .bold])
        case .stale: return ("stale", [.yellow, .bold])
        case .degraded: return ("● degraded: polled", .yellow)
        case .stopped(let reason): return ("stopped: \(reason)", [.red, .bold])
        }
    }

    static func header(_ model: DashboardModel, _ screen: inout Screen) {
        screen.fill(y: 0, attributes: .reverse)
        let demo = (model.demo ? " DEMO DATA " : "") + (model.replay ? (model.demo ? "REPLAY " : " REPLAY ") : "")
        var title = " odds · \(model.provider.displayName) · \(model.sport) · "
        // Room for the providers' states: what the title and the two facts never dropped leave.
        let (label, attributes) = connectionLabel(model, room: screen.width - TextWidth.width(of: demo) - 2
                                                  - TextWidth.width(of: " \(model.provider.displayName) · ") - 24)
        // Facts after the connection state; `drop` orders what goes first when the line is too narrow
        // (the title loses "odds ·" at step 2 and the sport at step 6; nil: never).
        var facts: [(text: String, drop: Int?)] = [(String(format: "%.1f msg/s", model.messagesPerSecond), 1),
                                                   ("\(model.shown.events.count) events", 5)]
        if let last = model.lastMessageAt { facts.append(("last " + age(model.now.timeIntervalSince(last)), 4)) }
        if model.paused { facts.append(("PAUSED", nil)) }
        if !model.filter.isEmpty && !model.editingFilter { facts.append(("filter: \(model.filter)", nil)) }
        facts.append(("sort: \(model.sort.rawValue)", 3))
        func width() -> Int {
            TextWidth.width(of: demo) + (demo.isEmpty ? 0 : 1) + TextWidth.width(of: title) + TextWidth.width(of: label)
                + facts.reduce(0) { $0 + 3 + TextWidth.width(of: $1.text) }
        }
        for step in 1...6 where width() > screen.width {
            if step == 2 { title = " \(model.provider.displayName) · \(model.sport) · " }
            if step == 6 { title = " \(model.provider.displayName) · " }
            facts.removeAll { $0.drop == step }
        }
        var x = 0
        if !demo.isEmpty { x = screen.put(demo, x: x, y: 0, attributes: [.yellow, .bold, .reverse]) + 1 }
        x = screen.put(title, x: x, y: 0, attributes: .reverse)
        x = screen.put(label, x: x, y: 0, attributes: attributes.union(.reverse))
        screen.put(facts.map { " · " + $0.text }.joined(), x: x, y: 0, attributes: .reverse)
    }

    static func age(_ seconds: TimeInterval) -> String {
        let s = max(0, seconds)
        if s < 10 { return String(format: "%.1fs ago", s) }
        if s < 120 { return "\(Int(s))s ago" }
        return "\(Int(s / 60))m ago"
    }

    static func footer(_ model: DashboardModel, _ screen: inout Screen) {
        let y = screen.height - 1
        screen.fill(y: y, attributes: .reverse)
        if model.editingFilter {
            screen.put(" /\(model.filter)▏  Enter keeps · Esc clears · Ctrl-U erases", x: 0, y: y, attributes: .reverse)
            return
        }
        if let draft = model.betDraft {
            let c = draft.cell
            let price = c.selection.price.map { $0.formatted(model.oddsFormat) } ?? "-"
            let what = "\(c.selection.name) \(price)\(c.book.map { " at " + BookNames.proper($0) } ?? "")"
            let x = screen.put(" bet: \(TerminalText.safe(what)) · stake: \(draft.stake)▏  ", x: 0, y: y, attributes: .reverse)
            screen.put(draft.error ?? "Tab next price · Enter records · Esc cancels", x: x, y: y,
                       attributes: draft.error == nil ? .reverse : [.red, .bold, .reverse])
            return
        }
        if let draft = model.ruleDraft {
            let x = screen.put(" alert: \(TerminalText.safe(draft.text))▏  ", x: 0, y: y, attributes: .reverse)
            if let error = draft.error {
                screen.put(error, x: x, y: y, attributes: [.red, .bold, .reverse])
            } else {
                screen.put("Tab next suggestion · Enter adds · Esc cancels", x: x, y: y, attributes: .reverse)
            }
            return
        }
        // The longest list of keys that fits; "? help · q quit" always does.
        let variants: [String]
        switch model.mode {
        case .table: variants = [
             " ↑↓/jk move · PgUp/PgDn · g/G · Enter detail · / filter · s sort · f favourite · o odds · p pause · v value · a alert · b bet · ? help · q quit",
             " ↑↓/jk move · PgUp/PgDn · g/G · Enter detail · / filter · s sort · f favourite · o odds · p pause · v value · a alert · ? help · q quit",
             " ↑↓/jk move · PgUp/PgDn · g/G · Enter detail · / filter · s sort · f favourite · o odds · p pause · v value · ? help · q quit",
             " ↑↓ move · Enter detail · / filter · s sort · f fav · o odds · p pause · v value · a alert · ? help · q quit",
             " ↑↓ move · Enter detail · / filter · s sort · f fav · o odds · p pause · v value · ? help · q quit",
            " ↑↓ move · Enter detail · / filter · s sort · f fav · o odds · ? help · q quit",
            " Enter detail · / filter · s sort · ? help · q quit",
            " ? help · q quit"]
        case .detail: variants = [
             " ↑↓/jk scroll · Esc back · o odds · p pause · v value · a alert · ? help · q quit",
             " ↑↓/jk scroll · Esc back · o odds · p pause · v value · ? help · q quit",
            " Esc back · ? help · q quit"]
        }
        let keys = variants.first { TextWidth.width(of: $0) <= screen.width } ?? variants[variants.count - 1]
        screen.put(keys, x: 0, y: y, attributes: .reverse)
    }

    // MARK: Table

    struct Columns {
        var mark = 1, time = 7, league = 12, home = 16, score = 7, away = 16, price = 8, incident = 0
        /// The SPORT column (after TIME) when the dashboard shows more than one sport; 0 otherwise.
        var sport = 0, sportX = 0
        /// The SRC column (before the prices) of fused matches: how many sources, `*` when they disagree.
        var src = 0, srcX = 0
        /// The MARGIN column (after the prices) of value mode; 0 otherwise.
        var margin = 0, marginX = 0
        /// The MOVE column (after the prices and MARGIN) on a terminal of 100 columns or more; 0 otherwise.
        var move = 0, moveX = 0
        var x: [Int] = []
    }

    /// `multiBook`: each price cell also names the book with the best price ("2.10 fand").
    /// `multiSport`: several sports are asked for (`--sport all`, or repeated): a SPORT column.
    /// `value`: value mode's MARGIN column.
    static func columns(width: Int, multiBook: Bool = false, multiSport: Bool = false, fused: Bool = false,
                        value: Bool = false) -> Columns {
        var c = Columns()
        if multiBook { c.price = 13 }
        if multiSport && width >= 100 { c.sport = 10 }
        if fused { c.src = 3 }
        if value { c.margin = 10 }
        if width >= 100 { c.move = 7 }
        // One space between the columns.
        let fixed = c.mark + c.time + c.score + 3 * c.price + 9 + (c.sport > 0 ? c.sport + 1 : 0) + (c.src > 0 ? c.src + 1 : 0)
            + (c.margin > 0 ? c.margin + 1 : 0) + (c.move > 0 ? c.move + 1 : 0)
        let flexible = width - fixed
        c.league = max(8, min(18, flexible * 18 / 100))
        c.home = max(10, min(24, flexible * 25 / 100))
        c.away = c.home
        c.incident = flexible - c.league - c.home - c.away
        if c.incident < 12 {
            // Too narrow for the incident column: give its room to the names.
            let spare = max(0, c.incident)
            c.incident = 0
            c.home += spare / 2
            c.away += spare - spare / 2
        }
        var x = 0
        for (i, w) in [c.mark, c.time, c.league, c.home, c.score, c.away, c.price, c.price, c.price].enumerated() {
            if i == 2 && c.sport > 0 { c.sportX = x; x += c.sport + 1 }
            if i == 6 && c.src > 0 { c.srcX = x; x += c.src + 1 }
            c.x.append(x)
            x += w + 1
        }
        if c.margin > 0 { c.marginX = x; x += c.margin + 1 }
        if c.move > 0 { c.moveX = x; x += c.move + 1 }
        c.x.append(x)
        return c
    }

    static func table(_ model: DashboardModel, _ screen: inout Screen) {
        let c = columns(width: screen.width, multiBook: model.provider.singleBook == nil,
                        multiSport: SportSelection.isAll(model.sport) || (SportSelection.sports(model.sport)?.count ?? 0) > 1,
                        fused: model.isFused, value: model.valueMode)
        if c.margin > 0 { screen.put("MARGIN", x: c.marginX, y: 1, attributes: [.bold, .underline], width: c.margin, right: true) }
        if c.move > 0 { screen.put("MOVE", x: c.moveX, y: 1, attributes: [.bold, .underline], width: c.move, right: true) }
        if c.sport > 0 { screen.put("SPORT", x: c.sportX, y: 1, attributes: [.bold, .underline], width: c.sport) }
        if c.src > 0 { screen.put("SRC", x: c.srcX, y: 1, attributes: [.bold, .underline], width: c.src) }
        let titles = ["", "TIME", "LEAGUE", "HOME", "SCORE", "AWAY", "1", "X", "2", "LATEST INCIDENT"]
        let widths = [c.mark, c.time, c.league, c.home, c.score, c.away, c.price, c.price, c.price, c.incident]
        for (i, title) in titles.enumerated() where widths[i] > 0 {
            let right = (6...8).contains(i)
            screen.put(title, x: c.x[i], y: 1, attributes: [.bold, .underline], width: widths[i], right: right)
        }
        let store = model.shown
        let order = model.order
        let bodyRows = tableRows(height: screen.height)
        if order.count == 0 {
            let connecting = model.isFused ? model.lastMessageAt == nil : model.store.feeds[model.provider] == nil
            let text = model.filter.isEmpty ? (connecting ? "Connecting…" : "No live events.")
                : "No match for “\(model.filter)”."
            screen.put(text, x: 2, y: 3, attributes: .dim)
            return
        }
        let selected = model.selected ?? order.key(at: 0)
        var scroll = min(model.scroll, max(0, order.count - bodyRows))
        if let i = order.position(of: selected) {
            if i < scroll { scroll = i }
            if i >= scroll + bodyRows { scroll = i - bodyRows + 1 }
        }
        // Only the rows on screen are laid out; the user's time zone is looked up once for them all.
        let zone = TimeZone.current
        for (row, position) in (scroll..<min(order.count, scroll + bodyRows)).enumerated() {
            let key = order.key(at: position)
            guard let state = store.events[key] else { continue }
            let y = 2 + row
            let e = state.event
            let stale = model.rowIsStale(key)
            var base: CellAttributes = stale ? .dim : []
            if key == selected { base.insert(.reverse); screen.fill(y: y, attributes: base) }
            let favourite = model.favourites.contains(e.home) || (e.away.map(model.favourites.contains) ?? false)
            // An alert that fired for the row lately outranks its favourite's star.
            if model.isAlerted(key) {
                screen.put("!", x: c.x[0], y: y, attributes: base.union([.magenta, .bold]))
            } else {
                screen.put(favourite ? "★" : " ", x: c.x[0], y: y, attributes: base.union(.yellow))
            }
            let time = stale ? "stale" : ShortClock.label(e, at: model.now, zone: zone, width: c.time)
            screen.put(time, x: c.x[1], y: y, attributes: base.union(e.status == .live && !stale ? .green : []), width: c.time)
            if c.sport > 0 { screen.put(e.sport, x: c.sportX, y: y, attributes: base, width: c.sport) }
            screen.put(e.league ?? "", x: c.x[2], y: y, attributes: base, width: c.league)
            screen.put(e.home, x: c.x[3], y: y, attributes: base.union(.bold), width: c.home)
            screen.put(e.scoreLabel ?? "", x: c.x[4], y: y, attributes: base.union(.bold), width: c.score)
            screen.put(e.away ?? "", x: c.x[5], y: y, attributes: base.union(.bold), width: c.away)
            if c.src > 0, let match = e.match {
                // How many providers have the match; a star when they disagree on the score.
                let conflicted = !match.conflicts.isEmpty
                screen.put("\(match.sources.count)" + (conflicted ? "*" : ""), x: c.srcX, y: y,
                           attributes: base.union(conflicted ? .yellow : .dim), width: c.src, right: true)
            }
            let value = model.valueMode ? model.rowValue(key) : nil
            // The 1 / X / 2 cells are worked out once a row, for the prices and the move.
            let columns = e.mainMarket == nil ? nil : e.mainColumns
            for (i, cell) in priceCells(model, state, columns: columns, width: c.price).enumerated() {
                var (text, attributes) = cell
                // A price whose EV passes the threshold: cyan and bold, "+" in the move marker's place when it has none.
                if let ev = value?.ev[i], model.minEV < ev {
                    attributes = [.cyan, .bold]
                    if text.hasSuffix(" ") { text.removeLast(); text += "+" }
                }
                screen.put(text, x: c.x[6 + i], y: y, attributes: base.union(attributes), width: c.price, right: true)
            }
            if let value, c.margin > 0 {
                if let arb = value.arbitrage {
                    screen.put(TextWidth.pad("ARB " + ValueReport.percent(arb.profit), to: c.margin, right: true), x: c.marginX, y: y,
                               attributes: base.union([.magenta, .bold]))
                } else if let margin = value.margin {
                    screen.put(TextWidth.pad(ValueReport.percent(margin), to: c.margin, right: true), x: c.marginX, y: y,
                               attributes: base.union(margin.isNegative ? .yellow : .dim))
                }
            }
            if c.move > 0, let columns, let (label, change) = model.biggestMove(key, state, columns: columns) {
                let text = label + (change > 0 ? "▲" : "▼") + percentText(abs(change))
                screen.put(text, x: c.moveX, y: y, attributes: base.union(change > 0 ? .green : .red), width: c.move, right: true)
            }
            if c.incident > 0, let incident = e.incidents.last {
                screen.put(EventReporter.incidentLine(incident, event: e), x: c.x[9], y: y,
                           attributes: base.union(incident.kind == .goal ? .bold : []), width: c.incident)
            }
        }
    }

    /// A move as the MOVE column prints it: "1.5%", "12%".
    static func percentText(_ f: Double) -> String {
        // By hand: the column is written for every row of every frame, and `String(format:)` goes through a locale.
        let p = max(0, f * 100)
        guard p.isFinite, p < 1e9 else { return "-" }
        if p < 9.95 {
            let tenths = Int((p * 10).rounded())
            return "\(tenths / 10).\(tenths % 10)%"
        }
        return "\(Int(p.rounded()))%"
    }

    /// The main market's 1 / X / 2 cells: price, move marker and colour; SUSP for suspended lines.
    static func priceCells(_ model: DashboardModel, _ state: EventState, columns: MainColumns? = nil,
                           width: Int = 13) -> [(String, CellAttributes)] {
        guard let market = state.event.mainMarket else { return [("", []), ("", []), ("", [])] }
        // Fused rows always name the source of the price, be it one.
        let multiBook = state.event.hasSeveralBooks || model.isFused
        func cell(_ c: LineCell?) -> (String, CellAttributes) {
            guard let c else { return ("", []) }
            let s = c.selection
            if s.suspended { return ("SUSP", .dim) }
            guard let price = s.price else { return ("-", .dim) }
            // The best across books, with its book (short: the column is narrow).
            // The book in the room the cell leaves (one column for the move marker): its name, or its short name.
            let priceText = price.formatted(model.oddsFormat)
            let room = width - TextWidth.width(of: priceText) - 2
            let text = priceText + (multiBook ? " " + BookNames.fit(c.book ?? "", width: room, short: model.bookShortNames) : "")
            guard let move = state.moves[SelectionKey(marketID: market.id, book: c.book ?? market.book, selectionID: s.id, line: s.line)],
                  let direction = move.direction else { return (text + " ", []) }
            let age = model.now.timeIntervalSince(move.changedAt)
            guard age <= model.moveMarkerSeconds else { return (text + " ", []) }
            var attributes: CellAttributes = direction == .up ? .green : .red
            if age <= model.flashSeconds { attributes.insert(.bold); attributes.insert(.underline) }
            return (text + (direction == .up ? "▲" : "▼"), attributes)
        }
        return (columns ?? state.event.mainColumns).cells.map(cell)
    }

    // MARK: Ticker

    static func ticker(_ model: DashboardModel, _ screen: inout Screen) {
        let lines = tickerLines(height: screen.height)
        let top = screen.height - 1 - lines - 1
        screen.put("─ Incidents " + String(repeating: "─", count: max(0, screen.width - 12)), x: 0, y: top, attributes: .dim)
        let store = model.shown
        for (i, item) in tickerItems(model, lines: lines).enumerated() {
            let y = top + 1 + i
            switch item.news {
            case .incident(let incident):
                let e = store.events[item.key]?.event
                let match = e?.title ?? "#\(item.key.id)"
                let line = " \(e.map { EventReporter.incidentLine(incident, event: $0) } ?? incident.detail ?? incident.kind.rawValue)  \(match)"
                screen.put(line, x: 0, y: y, attributes: incident.kind == .goal ? .bold : [])
            case .alert(let text):
                let x = screen.put(" ALERT ", x: 0, y: y, attributes: [.magenta, .bold, .reverse])
                screen.put(" " + TerminalText.safe(text), x: x, y: y, attributes: .magenta)
            case .note(let text):
                screen.put(" " + TerminalText.safe(text), x: 0, y: y, attributes: .dim)
            }
        }
        if model.ticker.isEmpty {
            screen.put(" No incidents yet.", x: 0, y: top + 1, attributes: .dim)
        }
    }

    /// Seconds a note (the answer to the user's own key: a rule added) stays in the ticker's first lines, however
    /// busy the feed: alerts and incidents would otherwise push it out of sight at once.
    static let noteHold: TimeInterval = 5

    /// The ticker's lines: the notes of the last `noteHold` seconds first, then the newest of the rest.
    static func tickerItems(_ model: DashboardModel, lines: Int) -> [TickerItem] {
        let held = model.ticker.indices.filter { i in
            if case .note = model.ticker[i].news { return model.now.timeIntervalSince(model.ticker[i].at) < noteHold }
            return false
        }.prefix(lines)
        let rest = model.ticker.indices.lazy.filter { !held.contains($0) }.prefix(lines - held.count)
        return (held + rest).map { model.ticker[$0] }
    }

    // MARK: Detail

    static func detail(_ model: DashboardModel, key: EventKey, _ screen: inout Screen) {
        let lines = detailLines(model, key: key)
        let body = screen.height - 2
        let start = min(model.detailScroll, max(0, lines.count - body))
        for (row, segments) in lines.dropFirst(start).prefix(body).enumerated() {
            var x = 1
            for (text, attributes) in segments where x < screen.width - 1 {
                screen.put(text, x: x, y: 1 + row, attributes: attributes, maxWidth: screen.width - 1 - x)
                x += TextWidth.width(of: text)
            }
        }
    }

    /// How far the detail pane of `key` scrolls: its last line at the bottom of a screen `height` rows high.
    static func detailScrollLimit(_ model: DashboardModel, key: EventKey, height: Int) -> Int {
        max(0, detailLines(model, key: key).count - (height - 2))
    }

    /// The detail pane's lines, each segments of text with their attributes.
    static func detailLines(_ model: DashboardModel, key: EventKey) -> [[(String, CellAttributes)]] {
        guard let state = model.shown.events[key] else { return [] }
        let e = state.event
        var lines: [[(String, CellAttributes)]] = []
        func line(_ text: String, _ attributes: CellAttributes = []) { lines.append([(text, attributes)]) }
        line(e.title, .bold)
        var facts = [(e.match == nil ? e.provider.displayName : "fused") + " " + e.id, e.sport]
        if let l = e.league { facts.append(l) }
        facts.append(e.status.rawValue)
        if let s = e.scoreLabel { facts.append("score \(s)") }
        if let c = e.clockLabel(at: model.now) { facts.append("clock \(c)") }
        if let p = e.period { facts.append(p) }
        facts.append("updated " + age(model.now.timeIntervalSince(state.lastUpdate)))
        line(facts.joined(separator: " · "), .dim)
        if let match = e.match {
            // Each provider's own names and id, how sure the join is, and how fresh its word is.
            for s in match.sources {
                let stale = model.store.isStale(EventKey(provider: s.provider, id: s.id), now: model.now,
                                                bound: model.stalenessBound(of: s.provider))
                let teams = s.away.map { "\(s.home) v \($0)" } ?? s.home
                let when = s.updatedAt.map { (stale ? "stale, " : "") + age(model.now.timeIntervalSince($0)) } ?? ""
                line("  " + TextWidth.pad(s.provider.rawValue, to: 13) + " " + teams + " [\(s.id)] · "
                     + String(format: "%.2f", s.confidence) + " " + s.reason + (when.isEmpty ? "" : " · " + when), stale ? .dim : [])
            }
            for c in match.conflicts { line("  ≠ " + c + " (the freshest is shown)", [.yellow, .bold]) }
        }
        let value = model.valueMode ? ValueLookup(model.marketValues(key)) : nil
        if value != nil {
            line("value: fair prices by \(model.valueSettings.reference) (\(model.valueSettings.method.rawValue)), EV per price, margin per book", .dim)
        }
        // Each price's line since the dashboard first saw the row, incidents marked on the same cells.
        let axis = model.trailStart(key).map { (from: $0, to: max(model.now, $0)) }
        let marks = model.trails.marks[key] ?? []
        if let axis {
            line("lines: since \(ISODate.timeOfDay(axis.from)) UTC, \(seenBy(model, since: axis.from)); G goal, R red card, P penalty, V VAR", .dim)
        }
        line("")
        if e.hasSeveralBooks || e.match.map({ $0.sources.count > 1 }) == true {
            lines += bookGrid(model, state, row: key, value: value, axis: axis)
        } else {
            for (index, market) in e.markets.enumerated() {
                var title: [(String, CellAttributes)] = [(market.name, [.bold, .underline])]
                if let margins = value?.margins[index] {
                    title.append(("  margin " + margins.map { ($0.line.map { $0 + " " } ?? "") + ($0.margin.map(ValueReport.percent) ?? "-") }
                        .joined(separator: ", "), .dim))
                }
                lines.append(title)
                if index == 0, let axis, value == nil, let ruler = ruler(marks, from: axis.from, to: axis.to, width: sparkWidth) {
                    lines.append([(String(repeating: " ", count: 2 + 30 + 2 + 18 + 2) + ruler, [.yellow, .bold])])
                }
                for (i, s) in market.selections.enumerated() {
                    let (price, attributes) = priceText(model, state, market, s, was: true)
                    var row = [("  " + TextWidth.pad(selectionName(s), to: 30) + "  " + (axis == nil ? price : TextWidth.pad(price, to: 18)), attributes)]
                    if let q = value?.quotes[index]?[i] {
                        let fair = q.market.fairPrice(q.outcome).map { ValueReport.fairText($0, model.oddsFormat) } ?? "-"
                        let ev = q.ev
                        row.append(("  fair " + fair, .dim))
                        if let ev { row.append(("  EV " + signedPercent(ev), model.minEV < ev ? [.cyan, .bold] : .dim)) }
                    }
                    if let axis, let trail = model.trailKey(key, market, selection: s.id) {
                        let points = model.trails.points(trail)
                        row.append(("  " + sparkline(points, from: axis.from, to: axis.to, width: sparkWidth,
                                                     unwatched: model.trails.unwatched(trail.event)), .dim))
                    }
                    lines.append(row)
                }
            }
        }
        line("")
        line("Incidents", [.bold, .underline])
        if e.incidents.isEmpty { line("  none", .dim) }
        for i in e.incidents.reversed() {
            line("  " + EventReporter.incidentLine(i, event: e), i.kind == .goal ? .bold : [])
        }
        if !marks.isEmpty, e.mainMarket != nil { lines += aroundIncidents(model, marks, event: e) }
        if !e.stats.isEmpty {
            line("")
            line("Statistics", [.bold, .underline])
            line("  " + TextWidth.pad("", to: 24) + "  " + TextWidth.pad(e.home, to: 14) + "  " + (e.away ?? ""), .dim)
            // The feed's groups repeat names ("Total shots" in "Match overview" and "Shots"): each group
            // under its own heading, so that no line reads as a duplicate.
            var group: String?
            for s in e.stats {
                if s.group != group, let name = s.group {
                    line("  " + name, .bold)
                }
                group = s.group
                let indent = s.group == nil ? "  " : "    "
                line(indent + TextWidth.pad(s.name, to: 26 - indent.count) + "  " + TextWidth.pad(s.home, to: 14) + "  " + s.away)
            }
        }
        if let l = e.lineups {
            line("")
            line("Lineups" + (l.confirmed == false ? " (predicted)" : ""), [.bold, .underline])
            for (team, side) in [(e.home, l.home), (e.away ?? "away", l.away)] {
                guard let side else { continue }
                line("  " + team + (side.formation.map { " " + $0 } ?? ""), .bold)
                line("    " + side.starters.map { p in [p.number, p.name].compactMap { $0 }.joined(separator: " ") }.joined(separator: ", "))
                if !side.substitutes.isEmpty {
                    line("    subs: " + side.substitutes.map(\.name).joined(separator: ", "), .dim)
                }
            }
        }
        return lines
    }

    /// `signed`: a spread's side, its line with its sign ("Chelsea +0.5"; by meaning a positive line is unsigned).
    static func selectionName(_ s: Selection, signed: Bool = false) -> String {
        guard let line = s.line else { return s.name }
        let shown = signed && !line.hasPrefix("-") && !line.hasPrefix("+") && line != "0" ? "+" + line : line
        return s.name.hasSuffix(line) || s.name.hasSuffix(shown) ? s.name : "\(s.name) \(shown)"
    }

    /// A selection's price as the detail pane shows it: SUSP, or the price with its recent move.
    static func priceText(_ model: DashboardModel, _ state: EventState, _ market: Market, _ s: Selection,
                          was: Bool) -> (String, CellAttributes) {
        var price = s.suspended ? "SUSP" : s.price?.formatted(model.oddsFormat) ?? "-"
        var attributes: CellAttributes = s.suspended ? .dim : []
        if let move = state.moves[SelectionKey(market: market, selection: s)], let d = move.direction,
           model.now.timeIntervalSince(move.changedAt) <= model.moveMarkerSeconds, !s.suspended {
            price += d == .up ? "▲" : "▼"
            attributes = d == .up ? .green : .red
            if was, let before = move.previous { price += " (was \(before.formatted(model.oddsFormat)))" }
        }
        return (price, attributes)
    }

    /// A price's source in a grid: its book, and with fused matches its provider.
    struct GridSource: Hashable {
        var provider: ProviderID?
        var book: String?
    }

    /// Several books (or sources): per market, a grid of selections × sources with moves, suspensions and
    /// the best price bold (fused: each source's age under its name), then where each selection's best
    /// price is, with the book's link.
    static func bookGrid(_ model: DashboardModel, _ state: EventState, row rowKey: EventKey, value: ValueLookup? = nil,
                         axis: (from: Date, to: Date)? = nil) -> [[(String, CellAttributes)]] {
        let e = state.event
        var sources: [GridSource] = []
        var seen = Set<GridSource>()
        for m in e.markets where seen.insert(GridSource(provider: m.provider, book: m.book)).inserted {
            sources.append(GridSource(provider: m.provider, book: m.book))
        }
        // Value mode: wider cells for each price's EV, a fair column and each book's margin.
        let cell = value == nil ? 10 : 17
        let fairWidth = value == nil ? 0 : 8
        // Each selection's line (its best price's) before the books, so that a grid wider than the screen keeps it.
        let sparkCells = 16
        let spark = axis == nil ? 0 : 2 + sparkCells
        // A book that two providers carry is named with its provider.
        var bookCount: [String: Int] = [:]
        for s in sources { bookCount[s.book ?? "", default: 0] += 1 }
        func title(_ s: GridSource) -> String {
            let book = s.book ?? s.provider?.rawValue ?? ""
            guard bookCount[s.book ?? "", default: 0] > 1, let p = s.provider else { return BookNames.proper(book) }
            return p.tag + " " + BookNames.fit(book, width: cell - 4, short: model.bookShortNames)
        }
        var out: [[(String, CellAttributes)]] = []
        var ids: [String] = []
        for m in e.markets where !ids.contains(m.id) { ids.append(m.id) }
        let updated: [ProviderID: Date] = Dictionary(e.match?.sources.compactMap { s in s.updatedAt.map { (s.provider, $0) } } ?? [],
                                                     uniquingKeysWith: { a, _ in a })
        for id in ids {
            let indices = e.markets.indices.filter { e.markets[$0].id == id }
            let markets = indices.map { e.markets[$0] }
            let spread = id.hasPrefix("spread:")
            let columns = sources.filter { s in markets.contains { $0.provider == s.provider && $0.book == s.book } }
            func index(of source: GridSource) -> Int? {
                indices.first { e.markets[$0].provider == source.provider && e.markets[$0].book == source.book }
            }
            let lead = "  " + TextWidth.pad("", to: 26) + (fairWidth > 0 ? TextWidth.pad("fair", to: fairWidth, right: true) : "")
                + (spark > 0 ? "  " + TextWidth.pad("the best's line", to: sparkCells) : "")
            out.append([(markets[0].name, CellAttributes([.bold, .underline]))])
            out.append([(lead + columns.map { TextWidth.pad(BookNames.fit(title($0), width: cell - 1, short: model.bookShortNames), to: cell, right: true) }.joined(), .dim)])
            if e.match != nil {
                let ages = columns.map { s -> String in
                    guard let p = s.provider, let at = updated[p] else { return "" }
                    return age(model.now.timeIntervalSince(at)).replacingOccurrences(of: " ago", with: "")
                }
                out.append([("  " + TextWidth.pad("age", to: 26 + fairWidth + spark) + ages.map { TextWidth.pad($0, to: cell, right: true) }.joined(), .dim)])
            }
            if let value {
                // One margin row per line the sources' markets hold (a market of several lines has a margin per line).
                var lines: [String?] = []
                for source in columns { for m in index(of: source).flatMap({ value.margins[$0] }) ?? [] where !lines.contains(m.line) { lines.append(m.line) } }
                for l in lines {
                    let cells = columns.map { source -> String in
                        let margin = index(of: source).flatMap { value.margins[$0]?.first { $0.line == l } }?.margin
                        return margin.map(ValueReport.percent) ?? ""
                    }
                    out.append([("  " + TextWidth.pad("margin" + (l.map { " " + $0 } ?? ""), to: 26 + fairWidth + spark)
                                 + cells.map { TextWidth.pad($0, to: cell, right: true) }.joined(), .dim)])
                }
            }
            var refs: [SelectionRef] = []
            var names: [SelectionRef: Selection] = [:]
            for m in markets { for s in m.selections where names[s.ref] == nil { refs.append(s.ref); names[s.ref] = s } }
            func offer(_ source: GridSource, _ ref: SelectionRef) -> (Market, Selection, Int, Int)? {
                guard let i = index(of: source), let j = e.markets[i].selections.firstIndex(where: { $0.ref == ref }) else { return nil }
                return (e.markets[i], e.markets[i].selections[j], i, j)
            }
            let best = e.bestPrices(marketID: id).mapValues { GridSource(provider: $0.provider, book: $0.book) }
            for ref in refs {
                var row: [(String, CellAttributes)] = [("  " + TextWidth.pad(selectionName(names[ref]!, signed: spread), to: 26), [])]
                if let value {
                    // The fair price of the selection: any source's quote names its market's outcome.
                    let q = columns.lazy.compactMap { offer($0, ref) }.compactMap { value.quotes[$0.2]?[$0.3] }.first
                    let fair = q.flatMap { $0.market.fairPrice($0.outcome) }.map { ValueReport.fairText($0, model.oddsFormat) } ?? ""
                    row.append((TextWidth.pad(fair, to: fairWidth, right: true), .dim))
                }
                // The best price's own line (its book's), as the dashboard saw it.
                if let axis {
                    var line = ""
                    if let source = best[ref], let (m, s, _, _) = offer(source, ref), let trail = model.trailKey(rowKey, m, selection: s.id) {
                        line = sparkline(model.trails.points(trail), from: axis.from, to: axis.to, width: sparkCells,
                                         unwatched: model.trails.unwatched(trail.event))
                    }
                    row.append(("  " + TextWidth.pad(line, to: sparkCells), .dim))
                }
                for source in columns {
                    guard let (m, s, i, j) = offer(source, ref) else {
                        row.append((TextWidth.pad("", to: cell), []))
                        continue
                    }
                    var (text, attributes) = priceText(model, state, m, s, was: false)
                    if best[ref] == source { attributes.insert(.bold) }
                    if let q = value?.quotes[i]?[j], let ev = q.ev {
                        text += " " + signedPercent(ev)
                        if model.minEV < ev { attributes = attributes.union([.cyan, .bold]) }
                    }
                    row.append((TextWidth.pad(text, to: cell, right: true), attributes))
                }
                out.append(row)
            }
            for ref in refs {
                guard let source = best[ref], let (_, s, _, _) = offer(source, ref), let link = s.link else { continue }
                out.append([("    \(selectionName(names[ref]!, signed: spread)): best at \(title(source)) \(link)", .dim)])
            }
        }
        return out
    }

    /// An EV or profit with its sign ("+3.21%", "-1.05%").
    static func signedPercent(_ f: Fraction) -> String { (f.isNegative ? "" : "+") + ValueReport.percent(f) }

    /// Value mode's reading of one event, by where each price came from.
    struct ValueLookup {
        /// Per source market index, per selection index: the analysed market, book and outcome it is.
        let quotes: [Int: [Int: QuoteIndex.Place]]
        /// Per source market index: each line's margin (`line` nil for a market of one line).
        let margins: [Int: [(line: String?, margin: Fraction?)]]

        init(_ values: [MarketValue]) {
            let index = QuoteIndex(values)
            quotes = index.places
            margins = index.margins.mapValues { lines in
                lines.count == 1 ? [(nil, lines[0].margin)] : lines.map { (ValueLookup.lineLabel($0.market), $0.margin) }
            }
        }

        /// "total:2.5" reads "2.5"; a market id without a line reads as itself.
        static func lineLabel(_ id: String) -> String {
            id.split(separator: ":", maxSplits: 1).last.map(String.init) ?? id
        }
    }

    // MARK: Help

    /// The lines of the help overlay.
    public static let helpLines = [
        "Keys",
        "",
        "↑ ↓  j k      move",
        "PgUp PgDn     page",
        "g G           first / last",
        "Enter         details of the match",
        "Esc           back, clear filter",
        "/             filter by team or league",
        "s             sort: kick-off, league, price move, incident",
        "f             favourite team (pinned, saved in config)",
        "o             odds format",
        "p             pause the view (data keeps flowing)",
        "v             value: margins, EV above the threshold, arbitrage",
        "a             alert rule for the selected match (Tab: suggestions)",
        "b             record a bet at a price shown (Tab: prices; needs --history)",
        "?             this help",
        "q             quit",
    ]

    static func help(_ screen: inout Screen) {
        let widest = helpLines.map { TextWidth.width(of: $0) }.max() ?? 0
        let w = min(screen.width - 4, widest + 4), h = min(screen.height - 2, helpLines.count + 2)
        let x0 = (screen.width - w) / 2, y0 = (screen.height - h) / 2
        for y in y0..<(y0 + h) {
            screen.put(String(repeating: " ", count: w), x: x0, y: y, attributes: .reverse)
        }
        for (i, line) in helpLines.prefix(h - 2).enumerated() {
            screen.put(line, x: x0 + 2, y: y0 + 1 + i, attributes: i == 0 ? [.reverse, .bold] : .reverse, maxWidth: w - 4)
        }
    }
}

// MARK: - Trails

extension DashboardLayout {
    static let sparkWidth = 24

    /// A selection's prices as the dashboard saw them, in `width` cells from `from` to `to`: each cell the price
    /// at its end, in blocks between the line's low and high; `·` while suspended; blank before it was first seen
    /// and where `unwatched` (no writer watched: the price unknown).
    static func sparkline(_ points: [PriceTrails.Point], from: Date, to: Date, width: Int, unwatched: [ClosedRange<Date>] = []) -> String {
        guard width > 0, !points.isEmpty else { return "" }
        let ramp = Array("▁▂▃▄▅▆▇█")
        let values = points.compactMap(\.odds)
        let low = values.min() ?? 0, high = values.max() ?? 0
        let span = max(to.timeIntervalSince(from), 1)
        var out = ""
        var next = 0
        var current: PriceTrails.Point?
        for cell in 0..<width {
            let end = from.addingTimeInterval(span * Double(cell + 1) / Double(width))
            while next < points.count, points[next].at <= end {
                current = points[next]
                next += 1
            }
            guard let point = current, !unwatched.contains(where: { $0.contains(end) && $0.lowerBound >= point.at }) else {
                out.append(" ")
                continue
            }
            guard let odds = point.odds else { out.append("·"); continue }
            out.append(high > low ? ramp[min(ramp.count - 1, Int((odds - low) / (high - low) * Double(ramp.count - 1) + 0.5))] : ramp[3])
        }
        return out
    }

    /// Where `marks` fall on the same cells: G, R, P, V; nil when none does.
    static func ruler(_ marks: [PriceTrails.Mark], from: Date, to: Date, width: Int) -> String? {
        let span = max(to.timeIntervalSince(from), 1)
        var cells = Array(repeating: Character(" "), count: width)
        var any = false
        for m in marks where m.at >= from && m.at <= to {
            guard let letter = m.incident.markLetter else { continue }
            cells[min(width - 1, max(0, Int(m.at.timeIntervalSince(from) / span * Double(width))))] = letter
            any = true
        }
        return any ? String(cells) : nil
    }

    /// The 1 / X / 2 cells' labels; an outright's one cell is its favourite's.
    static func columnLabels(_ columns: MainColumns) -> [String] { columns.outright ? ["1", "", ""] : ["1", "X", "2"] }

    /// Whose lines and incidents begin at `since`: the history's when from before the dashboard started (a
    /// dashboard with history on keeps what it sees there too), else this dashboard's alone.
    static func seenBy(_ model: DashboardModel, since: Date) -> String {
        since < model.startedAt ? "as the history kept them" : "as this dashboard saw them"
    }

    /// The prices of a row's incidents, before and first after, as lines of the detail pane.
    static func aroundIncidents(_ model: DashboardModel, _ marks: [PriceTrails.Mark], event e: Event) -> [[(String, CellAttributes)]] {
        let labels = columnLabels(e.mainColumns)
        func cells(_ prices: [Price?]) -> String {
            zip(labels, prices).filter { !$0.0.isEmpty }.map { "\($0.0) \($0.1?.formatted(model.oddsFormat) ?? "-")" }.joined(separator: "  ")
        }
        let since = marks.map(\.at).min() ?? model.startedAt
        var out: [[(String, CellAttributes)]] = [[("", [])], [("Prices around incidents (\(seenBy(model, since: since)))", [.bold, .underline])]]
        for m in marks.reversed() {
            let title = TextWidth.pad(EventReporter.incidentLine(m.incident, event: e), to: 32)
            let goal: CellAttributes = m.incident.kind == .goal ? .bold : []
            let after: CellAttributes = m.after == nil ? .dim : []
            let plain: CellAttributes = [], arrow: CellAttributes = .dim
            out.append([("  " + title + "  ", goal), (cells(m.before), plain), ("  →  ", arrow), (m.after.map(cells) ?? "no change seen yet", after)])
        }
        return out
    }
}

extension DashboardModel {
    /// A row's biggest move among its 1 / X / 2 cells (since each price was first seen, or over `moveWindow`):
    /// the cell's label and the change (+0.12 for 12 % longer odds).
    func biggestMove(_ key: EventKey, _ state: EventState, columns: MainColumns) -> (String, Double)? {
        let e = state.event
        guard let main = e.mainMarket else { return nil }
        let labels = DashboardLayout.columnLabels(columns)
        var best: (String, Double)?
        for (i, cell) in columns.cells.enumerated() {
            guard let cell, !cell.selection.suspended else { continue }
            let market = e.markets.count == 1 ? main
                : e.markets.first { $0.id == main.id && $0.book == (cell.book ?? main.book) && $0.selections.contains { $0.id == cell.selection.id } } ?? main
            guard let trail = trailKey(key, market, selection: cell.selection.id, event: e) else { continue }
            guard let change = trails.move(trail, window: moveWindow, now: now), abs(change) >= 0.0005 else { continue }
            if abs(change) > abs(best?.1 ?? 0) { best = (labels[i], change) }
        }
        return best
    }

    /// The time the detail pane's lines start at: when the dashboard first saw any price of the row.
    func trailStart(_ key: EventKey) -> Date? {
        guard let e = shown.events[key]?.event else { return nil }
        var start: Date?
        for m in e.markets {
            for s in m.selections {
                if let trail = trailKey(key, m, selection: s.id), let first = trails.points(trail).first?.at,
                   first < (start ?? .distantFuture) { start = first }
            }
        }
        return start
    }
}
