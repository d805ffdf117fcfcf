/// Text from a provider as a person is shown it in a message: never longer than a line or two.
public enum ProviderText {
    /// Characters of provider text a warning or error quotes, at most.
    public static let excerptLimit = 200

    /// `text` cut to `limit` characters, saying how much was left out ("… (98,000 more characters)").
    public static func excerpt(_ text: String, limit: Int = excerptLimit) -> String {
        guard text.utf8.count > limit else { return text }
        let count = text.count
        guard count > limit else { return text }
        return String(text.prefix(limit)) + "… (\(count - limit) more characters)"
    }
}
