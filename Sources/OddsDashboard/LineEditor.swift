/// How the dashboard's one-line text fields (the filter, an alert rule, a bet's stake) take a key, as a shell's
/// line does: Backspace deletes a character, Ctrl-U the line, Ctrl-W the word before the cursor, and a control
/// character is never typed into the text.
enum LineEditor {
    /// Applies `key` to `text`. Returns false for a key that is not editing (Enter, Esc, arrows), which the
    /// caller handles; a printable character that `accepts` refuses is consumed and dropped.
    static func apply(_ key: Key, to text: inout String, accepts: (Character) -> Bool = { _ in true }) -> Bool {
        switch key {
        case .backspace:
            if !text.isEmpty { text.removeLast() }
        case .clearLine:
            text = ""
        case .deleteWord:
            while text.last?.isWhitespace == true { text.removeLast() }
            while let last = text.last, !last.isWhitespace { text.removeLast() }
        case .character(let c):
            if isTypable(c) && accepts(c) { text.append(c) }
        default:
            return false
        }
        return true
    }

    /// A character a person types into a line: not a newline, and no control or bidirectional-override scalar
    /// (which would move or hide what the line shows).
    static func isTypable(_ c: Character) -> Bool {
        if c.isNewline { return false }
        return !c.unicodeScalars.contains { s in
            s.properties.generalCategory == .control || (0x202A...0x202E).contains(s.value) || (0x2066...0x2069).contains(s.value)
        }
    }
}
