// `odds-bench fuzz FILE... [--count N] [--seed S]`: the long fuzz run (a million inputs per decoder by default)
// over hostile variants of the frames of one or more `odds record` files. Exits 1 if a decoder stops
// decoding valid frames afterwards; a crash or hang shows as the process dying or never finishing.
import Foundation
import OddsFuzz
import OddsTransport

enum FuzzBench {
    static func run(_ args: [String]) -> Int32 {
        let count = IngestBench.value("--count", in: args).flatMap(Int.init) ?? 1_000_000
        let seed = IngestBench.value("--seed", in: args).flatMap(UInt64.init) ?? 42
        let files = args.enumerated().filter { i, a in !a.hasPrefix("--") && (i == 0 || !["--count", "--seed"].contains(args[i - 1])) }.map(\.1)
        guard !files.isEmpty else {
            FileHandle.standardError.write(Data("usage: odds-bench fuzz RECORDING... [--count N] [--seed S]\n".utf8))
            return 64
        }
        var corpus: [[UInt8]] = []
        for path in files {
            guard let reader = try? RecordingReader(path: path) else {
                FileHandle.standardError.write(Data("odds-bench: cannot read \(path)\n".utf8))
                return 66
            }
            // Every frame would be a big corpus; every tenth keeps its variety.
            var i = 0
            while let f = reader.next() { if i % 10 == 0 { corpus.append(f.bytes) }; i += 1 }
        }
        guard !corpus.isEmpty else { return 65 }
        print("fuzz: \(corpus.count) corpus frames from \(files.joined(separator: ", ")); \(count) inputs per decoder; seed \(seed)")
        let reports = Fuzzer.runAll(corpus: corpus, count: count, seed: seed)
        for r in reports { print("  \(r)") }
        return reports.allSatisfy { $0.stillWorks && $0.disagreements == 0 } ? 0 : 1
    }
}
