import Foundation
import OddsCommandSupport
import OddsCLI
import OddsTestSupport
import Testing

/// The one writer every command prints through.
@Suite("IOContext output", .unitLane)
struct IOContextTests {
    @Test("Lines written from many threads at once arrive whole, in one piece each, and none is lost")
    func concurrentLinesStayWhole() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let io = IOContext(environment: [:], output: fds[1])
        // Lines longer than the pipe (64 KiB): each write blocks part-way, so only the lock keeps lines whole.
        let writers = 4, perWriter = 10, length = 200_000
        // Plain threads: a writer blocked on a full pipe must not hold up the reader.
        let readEnd = fds[0]
        let received = LockedBytes()
        let reader = Thread {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let n = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
                if n <= 0 { break }
                received.append(buffer[0..<n])
            }
            received.finish()
        }
        reader.start()
        DispatchQueue.concurrentPerform(iterations: writers) { w in
            let letter = Character(Unicode.Scalar(UInt8(ascii: "a") + UInt8(w)))
            for _ in 0..<perWriter { io.out(String(repeating: letter, count: length) + "\n") }
        }
        close(fds[1])
        #expect(received.wait(seconds: 30), "the reader did not see the end of the pipe")
        close(fds[0])
        let lines = received.bytes.split(separator: UInt8(ascii: "\n"))
        #expect(lines.count == writers * perWriter)
        let interleaved = lines.filter { $0.count != length || Set($0).count != 1 }
        #expect(interleaved.isEmpty, "\(interleaved.count) lines interleaved")
        #expect(!io.stdoutClosed)
    }

    @Test("A line written as bytes is masked like text where it holds a secret, and written as it is where not")
    func bytesLineMasked() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let io = IOContext(environment: [:], output: fds[1])
        io.addSecrets(["sk-live-0123456789", "clé-secrète"])
        let lines = ["{\"url\":\"wss://x/?k=sk-live-0123456789\"}\n",         // an ASCII secret: masked
                     "{\"name\":\"sk-live-012345678\"}\n",                     // one byte short: as it is
                     "{\"note\":\"clé-secrète\"}\n",                            // a secret that is not ASCII: masked
                     "{\"note\":\"cle\u{301}-secre\u{300}te\"}\n",            // the same text decomposed: masked as text is
                     "{\"home\":\"Atlético\"}\n"]
        for line in lines { io.out(line: Array(line.utf8)) }
        close(fds[1])
        var got: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, $0.count) }
            if n <= 0 { break }
            got += buffer[0..<n]
        }
        close(fds[0])
        var text = IOContext(environment: [:]).redactor
        text.add("sk-live-0123456789"); text.add("clé-secrète")
        #expect(String(decoding: got, as: UTF8.self) == lines.map { text.redact($0, parameters: false) }.joined())
        #expect(String(decoding: got, as: UTF8.self).components(separatedBy: "***").count == 4)
    }

    @Test("A closed reader sets stdoutClosed once, from any number of writers, and later output is dropped")
    func closedPipeFromManyWriters() async {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        close(fds[0])
        let io = IOContext(environment: [:], output: fds[1])
        #expect(!io.stdoutClosed)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 { group.addTask { for _ in 0..<50 { io.out("line\n") } } }
        }
        #expect(io.stdoutClosed)
        io.out("after\n")
        #expect(io.stdoutClosed)
        close(fds[1])
    }
}

/// Bytes gathered by a reader thread, and when it is done.
final class LockedBytes: @unchecked Sendable {  // every field is touched under `condition`
    private let condition = NSCondition()
    private var _bytes: [UInt8] = []
    private var done = false

    func append(_ chunk: ArraySlice<UInt8>) { condition.lock(); _bytes.append(contentsOf: chunk); condition.unlock() }
    func finish() { condition.lock(); done = true; condition.broadcast(); condition.unlock() }
    var bytes: [UInt8] { condition.lock(); defer { condition.unlock() }; return _bytes }

    /// Waits up to `seconds` for `finish()`; false on timeout.
    func wait(seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock(); defer { condition.unlock() }
        while !done { if !condition.wait(until: deadline) { return done } }
        return true
    }
}

/// The environment read from `environ` (without setting up Foundation's process information).
@Suite("The process environment", .unitLane)
struct ProcessEnvironmentTests {
    @Test("It is the environment Foundation reads")
    func sameAsFoundation() {
        let ours = ProcessEnvironment.current()
        #expect(ours == ProcessInfo.processInfo.environment)
        #expect(ours["PATH"] != nil)
    }
}
