#if canImport(Glibc)
import Glibc
#endif
/// Removes API keys from any text before it is shown or logged.
///
/// It masks every known secret wherever it appears, and the value of any query parameter or header
/// that carries a key (`key=`, `apiKey=`, `x-api-key=`, `X-Secret:`), known or not.
public struct Redactor: Sendable {
    public static let mask = "***"
    private var secrets: [String]
    /// Query parameters (`name=value`) that carry keys.
    static let keyParameters = ["key", "apikey", "api_key", "x-api-key", "token", "secret", "x-secret", "password"]
    /// Headers (`Name: value`) that carry keys.
    static let keyHeaders = ["x-secret", "x-api-key", "authorization", "apikey", "api-key"]

    public init(secrets: [String] = []) {
        // Longest first, so a secret that contains another is masked whole.
        self.secrets = secrets.filter { $0.count >= 3 }.sorted { $0.count > $1.count }
    }

    public mutating func add(_ secret: String) {
        guard secret.count >= 3, !secrets.contains(secret) else { return }
        secrets.append(secret)
        secrets.sort { $0.count > $1.count }
    }

    /// Whether `bytes` (UTF-8 text) may hold a known secret: false only when none can be there. A secret that is
    /// not plain ASCII may match as text what it does not match as bytes, so it always may.
    public func mayHoldSecret(_ bytes: UnsafeRawBufferPointer) -> Bool {
        for s in secrets {
            guard s.utf8.allSatisfy({ $0 < 0x80 }) else { return true }
            var s = s
            if s.withUTF8({ Self.find($0, in: bytes) }) { return true }
        }
        return false
    }

    static func find(_ needle: UnsafeBufferPointer<UInt8>, in hay: UnsafeRawBufferPointer) -> Bool {
        guard let first = needle.first, let n = needle.baseAddress, let h = hay.baseAddress, needle.count <= hay.count else {
            return needle.isEmpty
        }
        for i in 0...(hay.count - needle.count) where hay[i] == first && memcmp(h + i, n, needle.count) == 0 { return true }
        return false
    }

    /// Masks known secrets and, unless `parameters` is false, key-like parameters.
    public func redact(_ text: String, parameters: Bool = true) -> String {
        var out = text
        for s in secrets where out.contains(s) {
            out = out.replacing(s, with: Redactor.mask)
        }
        return parameters ? Redactor.redactParameters(Redactor.redactCredentials(out)) : out
    }

    /// Masks the credential after an HTTP auth scheme (`Bearer <key>`, `Basic <…>`)
    /// and the userinfo of a URL (`wss://user:key@host`), wherever they appear.
    static func redactCredentials(_ text: String) -> String {
        var out = text
        if out.range(of: "://") != nil, out.contains("@") {
            var result = ""
            var rest = Substring(out)
            while let scheme = rest.range(of: "://") {
                result += rest[..<scheme.upperBound]
                rest = rest[scheme.upperBound...]
                let authorityEnd = rest.firstIndex(where: { "/?# \n\t\"'<>".contains($0) }) ?? rest.endIndex
                if let at = rest[..<authorityEnd].lastIndex(of: "@") {
                    result += mask
                    rest = rest[at...]
                }
            }
            out = result + rest
        }
        // After an auth scheme word, the next word is the credential.
        let schemes: Set<String> = ["bearer", "basic"]
        let delimiters: Set<Character> = [" ", "\n", "\t", "\"", "'", ",", ";"]
        var result = ""
        var i = out.startIndex
        var previousWord = ""
        while i < out.endIndex {
            if delimiters.contains(out[i]) { result.append(out[i]); i = out.index(after: i); continue }
            let end = out[i...].firstIndex(where: { delimiters.contains($0) }) ?? out.endIndex
            let word = out[i..<end]
            if schemes.contains(previousWord.lowercased()) && out[out.index(before: i)] == " " {
                result += mask
                previousWord = ""
            } else {
                result += word
                previousWord = String(word)
            }
            i = end
        }
        return result
    }

    /// Masks `name=value` in query strings and `Name: value` in header dumps for key-like names.
    static func redactParameters(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.count)
        var i = text.startIndex
        while i < text.endIndex {
            let c = text[i]
            if c == "=" || c == ":" {
                // Look back for the parameter name.
                var start = i
                while start > text.startIndex {
                    let p = text[text.index(before: start)]
                    if p.isLetter || p.isNumber || p == "-" || p == "_" { start = text.index(before: start) } else { break }
                }
                let name = text[start..<i].lowercased()
                if c == "=" ? keyParameters.contains(name) : keyHeaders.contains(name) {
                    result.append(c)
                    var j = text.index(after: i)
                    if c == ":" { while j < text.endIndex, text[j] == " " { result.append(" "); j = text.index(after: j) } }
                    var end = j
                    while end < text.endIndex, !"&# \n\"'\t,;)".contains(text[end]) { end = text.index(after: end) }
                    if end > j { result += mask }
                    i = end
                    continue
                }
            }
            result.append(c)
            i = text.index(after: i)
        }
        return result
    }
}

