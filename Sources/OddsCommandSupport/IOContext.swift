import Foundation
import Logging
import NIOConcurrencyHelpers
import OddsModel
import OddsOutput

/// The process's I/O in one place: environment, TTY and colour facts, terminal width, and the
/// writers every command prints through. Everything written is redacted first.
// @unchecked Sendable: the lets are immutable; `_redactor` and `_stdoutClosed` are only touched under `lock`.
public final class IOContext: @unchecked Sendable {
    public let environment: [String: String]
    public let stdoutIsTTY: Bool
    public let stderrIsTTY: Bool
    private let lock = NIOLock()
    /// Held while writing to stdout, so that lines from two tasks never interleave.
    private let writeLock = NIOLock()
    private var _redactor = Redactor()
    private var _stdoutClosed = false
    /// Set when stdout is gone (a closed pipe): further output is dropped. Read and written under `lock`
    /// (writers on several tasks may find the pipe closed at once).
    public var stdoutClosed: Bool { lock.withLock { _stdoutClosed } }

    /// Where `out` writes: stdout, or another descriptor in tests.
    public let output: Int32

    public init(environment: [String: String] = ProcessEnvironment.current(), output: Int32 = STDOUT_FILENO) {
        self.environment = environment
        self.output = output
        self.stdoutIsTTY = isatty(output) == 1
        self.stderrIsTTY = isatty(STDERR_FILENO) == 1
        signal(SIGPIPE, SIG_IGN)
    }

    public var redactor: Redactor { lock.withLock { _redactor } }

    /// Registers secrets that must never be printed.
    public func addSecrets(_ secrets: [String]) {
        lock.withLock { for s in secrets { _redactor.add(s) } }
    }

    /// Terminal columns of stdout, or nil when it is not a terminal.
    public var width: Int? {
        guard stdoutIsTTY else { return nil }
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return environment["COLUMNS"].flatMap(Int.init) ?? 80
    }

    /// Whether to colour stdout: `always`, `never`, or `auto` (a terminal, NO_COLOR unset, TERM not dumb).
    public func colorEnabled(_ mode: ColorMode) -> Bool {
        switch mode {
        case .always: return true
        case .never: return false
        case .auto:
            if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
            if environment["TERM"] == "dumb" { return false }
            return stdoutIsTTY
        }
    }

    /// Writes to stdout and flushes, so pipes see each line at once.
    public func out(_ text: String) {
        guard !stdoutClosed else { return }
        let safe = redactor.redactSecretsOnly(text)
        // Straight to fd 1 (no C `FILE` buffer to flush; C's `stdout` is shared mutable state to
        // Swift 6). One writer at a time keeps concurrent lines whole, as `fwrite` did.
        writeWhole(Array(safe.utf8))
    }

    /// Writes `line` (UTF-8 text, its newline included) to stdout as `out` does, without making a String of it
    /// first, unless it may hold a secret to mask.
    public func out(line: [UInt8]) {
        guard !stdoutClosed else { return }
        let plain = line.withUnsafeBytes { !redactor.mayHoldSecret($0) }
        guard plain else { return out(String(decoding: line, as: UTF8.self)) }
        writeWhole(line)
    }

    /// Writes `bytes` to stdout whole, one writer at a time; a failed write (the reader gone) closes stdout.
    private func writeWhole(_ bytes: [UInt8]) {
        let ok = writeLock.withLock { bytes.withUnsafeBytes { IOContext.writeAll(output, $0) } }
        if !ok { lock.withLock { _stdoutClosed = true } }
    }

    /// Writes every byte, resuming after partial writes and interrupts; false on an error (EPIPE).
    static func writeAll(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> Bool {
        guard var at = buffer.baseAddress else { return true }
        var left = buffer.count
        while left > 0 {
            let n = write(fd, at, left)
            if n < 0 { if errno == EINTR { continue }; return false }
            at += n
            left -= n
        }
        return true
    }

    /// Writes one line to stderr, prefixed "odds: ": redacted, and made safe for the terminal (log
    /// lines and errors may quote a provider's text).
    public func err(_ line: String) {
        let safe = TerminalText.safe(redactor.redact(line))
        // Data(bytes:count:), not Data(String.UTF8View): the sequence initializer asks the runtime whether the
        // view is ContiguousBytes, a scan of every conformance record on the first line of a run.
        var text = "odds: " + safe + "\n"
        text.withUTF8 { FileHandle.standardError.write(Data(bytes: $0.baseAddress!, count: $0.count)) }
    }

    /// Rings the terminal bell on stderr (stdout may be a pipe of JSON lines).
    public func ring() {
        FileHandle.standardError.write(Data([0x07]))
    }

    /// A logger that writes redacted lines to stderr.
    public func logger(verbose: Bool) -> Logger {
        var logger = Logger(label: "odds") { _ in StderrLogHandler(io: self) }
        logger.logLevel = verbose ? .debug : .warning
        return logger
    }
}

/// `auto`, `always` or `never`.
public enum ColorMode: String, CaseIterable, Sendable { case auto, always, never }

struct StderrLogHandler: LogHandler {
    let io: IOContext
    var logLevel: Logger.Level = .warning
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        io.err("\(event.level): \(event.message)")
    }
}

extension Redactor {
    /// Masks known secrets only: stdout carries data, where `key=`-like text may be legitimate.
    func redactSecretsOnly(_ text: String) -> String {
        redact(text, parameters: false)
    }
}
