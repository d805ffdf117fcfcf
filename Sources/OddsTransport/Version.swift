/// The tool's version, shown by `--version` and sent as the User-Agent: the one place it is written (the
/// Makefile reads it from here for `make dist`).
public enum OddsVersion {
    public static let current = "0.1.0"
}
