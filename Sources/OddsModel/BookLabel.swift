/// A sportsbook's name as a narrow column shows it: the whole name when it fits, else the short name its
/// provider gives (`ProviderDescriptor.bookShortNames`: "DK", "FD", "MGM"; however the feed spaces or cases
/// the name), else its first words that fit, else the initials of its words, else its start. The same in the
/// dashboard's price cells and its detail grid's headers.
public enum BookLabel {
    public static func fit(_ name: String, width: Int, short: [String: String]) -> String {
        guard width > 0 else { return "" }
        if name.count <= width { return name }
        // The feeds spell one book several ways ("William Hill", "williamhill", "William-Hill").
        let lower = name.lowercased()
        if let s = short[lower] ?? short[String(lower.filter { $0.isLetter || $0.isNumber })], s.count <= width {
            return s
        }
        // Whole words, as many as fit ("William Hill US" in 12 is "William Hill").
        let all = name.split(whereSeparator: { $0 == " " || $0 == "-" || $0 == "_" })
        var words: [Substring] = []
        for word in all {
            let candidate = (words + [word]).joined(separator: " ")
            if candidate.count > width { break }
            words.append(word)
        }
        if !words.isEmpty { return words.joined(separator: " ") }
        // Several words, none of which fits: their initials ("Paddy Power" is "PP"), not a word cut short.
        let initials = String(all.compactMap(\.first)).uppercased()
        if initials.count > 1, initials.count <= width { return initials }
        return String(name.prefix(width))
    }
}
