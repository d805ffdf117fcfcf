import CNcursesw
import Foundation
import OddsDashboard

/// The only code that talks to ncursesw: opens the screen, draws what changed, reads keys, and
/// always restores the terminal.
public final class CursesTerminal {
    private var screen: OpaquePointer?
    private var previous: Screen?
    private var isOpen = false
    /// Bytes of terminal output, when drawing to a file (benchmarks).
    public private(set) var output: UnsafeMutablePointer<FILE>?

    public enum OpenError: Error, CustomStringConvertible {
        case notATerminal
        case cannotInitialize(String)
        public var description: String {
            switch self {
            case .notATerminal: return "odds dash needs a terminal on stdin and stdout; for pipes and scripts use `odds stream`."
            case .cannotInitialize(let term): return "cannot start the terminal screen for TERM=\(term); try TERM=xterm-256color."
            }
        }
    }

    private init() {}

    /// Opens the full screen on the process's terminal. Checks first, so that curses never exits the process.
    public static func open(environment: [String: String]) throws -> CursesTerminal {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { throw OpenError.notATerminal }
        let term = environment["TERM"] ?? ""
        guard !term.isEmpty, term != "dumb" else { throw OpenError.cannotInitialize(term.isEmpty ? "(unset)" : term) }
        return try open(term: term, output: odds_stdout(), input: odds_stdin())
    }

    /// Opens a screen on any output, e.g. a file for measuring what a frame costs.
    public static func open(term: String, output: UnsafeMutablePointer<FILE>, input: UnsafeMutablePointer<FILE>) throws -> CursesTerminal {
        // UTF-8 output needs the locale; C.UTF-8 is always present.
        if setlocale(LC_ALL, "") == nil || !String(cString: nl_langinfo(nl_item(CODESET))).uppercased().contains("UTF") {
            setlocale(LC_ALL, "C.UTF-8")
        }
        let t = CursesTerminal()
        guard let s = term.withCString({ newterm($0, output, input) }) else { throw OpenError.cannotInitialize(term) }
        t.screen = s
        t.output = output
        set_term(s)
        t.isOpen = true
        cbreak()
        noecho()
        nonl()
        keypad(odds_stdscr(), true)
        set_escdelay(25)
        curs_set(0)
        if has_colors() {
            start_color()
            use_default_colors()
            init_pair(1, Int16(COLOR_GREEN), -1)
            init_pair(2, Int16(COLOR_RED), -1)
            init_pair(3, Int16(COLOR_YELLOW), -1)
            init_pair(4, Int16(COLOR_CYAN), -1)
            init_pair(5, Int16(COLOR_MAGENTA), -1)
        }
        return t
    }

    /// Terminal size in cells.
    public var size: (width: Int, height: Int) { (Int(odds_cols()), Int(odds_lines())) }

    /// Draws `next`, writing only the cells that differ from the last frame.
    public func draw(_ next: Screen) {
        guard isOpen else { return }
        let full = previous == nil || previous!.width != next.width || previous!.height != next.height
        if full { erase() }
        for y in 0..<next.height {
            let row = next.rows[y]
            let old = full ? nil : previous!.rows[y]
            var x = 0
            while x < next.width {
                if let old, old[x] == row[x] { x += 1; continue }
                // A run of changed cells with the same attributes, written at once.
                let attributes = row[x].attributes
                var text = ""
                var end = x
                while end < next.width, row[end].attributes == attributes, old.map({ $0[end] != row[end] }) ?? true {
                    text += row[end].text
                    end += 1
                }
                // A wide character's continuation cell starts a run only if its lead changed too.
                if text.isEmpty { x = end == x ? x + 1 : end; continue }
                attrset(Int32(bitPattern: UInt32(truncatingIfNeeded: curses(attributes))))
                mvaddstr(Int32(y), Int32(x), text)
                x = end
            }
        }
        attrset(0)
        refresh()
        previous = next
    }

    private func curses(_ a: CellAttributes) -> attr_t {
        var v: attr_t = 0
        if a.contains(.bold) { v |= odds_a_bold() }
        if a.contains(.dim) { v |= odds_a_dim() }
        if a.contains(.reverse) { v |= odds_a_reverse() }
        if a.contains(.underline) { v |= odds_a_underline() }
        if a.contains(.green) { v |= odds_color_pair(1) }
        else if a.contains(.red) { v |= odds_color_pair(2) }
        else if a.contains(.yellow) { v |= odds_color_pair(3) }
        else if a.contains(.cyan) { v |= odds_color_pair(4) }
        else if a.contains(.magenta) { v |= odds_color_pair(5) }
        return v
    }

    /// Forgets the last frame, so the next draw repaints everything (after a resize).
    public func invalidate() {
        previous = nil
        clearok(odds_stdscr(), true)
    }

    /// Waits up to `milliseconds` for a key. Resizes come back as `.resize`.
    public func readKey(timeoutMilliseconds: Int32) -> TerminalInput? {
        guard isOpen else { return nil }
        timeout(timeoutMilliseconds)
        var ch: wint_t = 0
        let status = wget_wch(odds_stdscr(), &ch)
        if status == ERR { return nil }
        if status == odds_key_code_yes() {
            switch Int32(ch) {
            case KEY_UP: return .key(.up)
            case KEY_DOWN: return .key(.down)
            case KEY_PPAGE: return .key(.pageUp)
            case KEY_NPAGE: return .key(.pageDown)
            case KEY_HOME: return .key(.home)
            case KEY_END: return .key(.end)
            case KEY_ENTER: return .key(.enter)
            case KEY_BACKSPACE: return .key(.backspace)
            case KEY_RESIZE: return .resize
            default: return nil
            }
        }
        switch ch {
        case 10, 13: return .key(.enter)
        case 27: return .key(.escape)
        case 127, 8: return .key(.backspace)
        case 21: return .key(.clearLine)
        case 23: return .key(.deleteWord)
        case 9: return .key(.character("\t"))
        case 0..<32: return nil
        default:
            guard let scalar = Unicode.Scalar(UInt32(ch)) else { return nil }
            return .key(.character(Character(scalar)))
        }
    }

    /// Leaves curses mode and shows the cursor again. Safe to call more than once.
    public func close() {
        guard isOpen else { return }
        isOpen = false
        curs_set(1)
        endwin()
        if let screen { delscreen(screen) }
        screen = nil
        fflush(odds_stdout())
    }

    deinit { close() }
}

/// Input from the terminal.
public enum TerminalInput: Equatable {
    case key(Key)
    case resize
}
