import CBuildInfo
import OddsTransport

/// What `odds --version` says: the version, then what it was built from, on one line whose first word is the
/// version ("0.1.0 (commit 1a2b3c4d5e6f-dirty, built 2026-11-24, Swift 6.3.1)"). The version itself lives in
/// `OddsVersion.current`; the rest comes from `make`, and reads "unknown" in a build without it.
enum BuildInfo {
    static var commit: String { text(odds_build_commit()) }
    static var date: String { text(odds_build_date()) }
    static var swift: String {
        let given = text(odds_build_swift())
        return given == "unknown" ? compilerVersion : given
    }

    static var line: String { "\(OddsVersion.current) (commit \(commit), built \(date), Swift \(swift))" }

    static func text(_ c: UnsafePointer<CChar>) -> String {
        let s = String(cString: c)
        return s.isEmpty ? "unknown" : s
    }

    /// The compiler's version as far as `#if compiler` tells, for builds without `make`.
    static var compilerVersion: String {
        #if compiler(>=7.0)
        return "7.0 or later"
        #elseif compiler(>=6.3)
        return "6.3"
        #elseif compiler(>=6.2)
        return "6.2"
        #elseif compiler(>=6.1)
        return "6.1"
        #else
        return "6.0"
        #endif
    }
}
