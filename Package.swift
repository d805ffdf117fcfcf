// swift-tools-version:6.0
import PackageDescription

/// What every test target may use: the whole library, the simulator's fault switches and the shared helpers.
let testDependencies: [Target.Dependency] = [
    "OddsModel", "OddsJSON", "OddsStore", "OddsOutput", "OddsTransport", "OddsProviders",
    "OddsPulseScore", "OddsTickOdds", "OddsBoltOdds", "OddsSportsAPI", "OddsSimulator", "OddsSimulatorFaults", "OddsCLI",
    "OddsDashboard", "OddsFuzz", "OddsFusion", "OddsValue", "OddsCommandSupport", "OddsTestSupport", "CFileMap", "OddsHistory",
    "OddsAlerts", "OddsBets",
    .product(name: "Logging", package: "swift-log"),
    // A scripted WebSocket server for the transport's tests (frames a simulator would never send).
    .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
    .product(name: "NIOHTTP1", package: "swift-nio"), .product(name: "NIOWebSocket", package: "swift-nio"),
    // To check a history file from outside the writer (integrity after a kill -9).
    .product(name: "GRDB", package: "GRDB.swift"),
]

let package = Package(
    name: "odds",
    products: [
        .executable(name: "odds", targets: ["odds"]),
        .executable(name: "odds-bench", targets: ["OddsBench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/attaswift/BigInt", from: "6.0.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        // Swift links executables with --export-dynamic: every symbol in the dynamic table, which the runtime's
        // start-up `dladdr` walks one by one, at every start (`odds --version` too).
        // Nothing looks our own symbols up at run time; crash backtraces read the file's symbol table.
        .executableTarget(name: "odds", dependencies: ["OddsCLI"], linkerSettings: [.unsafeFlags(["-Xlinker", "--no-export-dynamic"])]),
        .target(name: "OddsCLI", dependencies: [
            "OddsModel", "OddsJSON", "OddsStore", "OddsOutput", "OddsTransport", "OddsProviders", "OddsPulseScore",
            "OddsTickOdds", "OddsBoltOdds", "OddsSportsAPI", "OddsSimulator", "OddsDashboard", "OddsTerminal", "OddsFusion", "OddsValue",
            "CBuildInfo", "CAllocator", "OddsCommandSupport", "OddsHistory", "OddsAlerts", "OddsBets",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "TOMLKit", package: "TOMLKit"),
        ]),
        .executableTarget(name: "OddsBench", dependencies: ["OddsDashboard", "OddsTerminal", "OddsStore", "OddsModel",
                                                          "OddsProviders", "OddsTransport", "OddsFuzz", "OddsFusion", "OddsValue", "OddsJSON", "OddsTickOdds", "CAllocator", "OddsAlerts",
                                                          .product(name: "Logging", package: "swift-log")]),
        .target(name: "OddsModel"),
        // What every command shares (options, the I/O context, the command context): below the providers, whose
        // command groups live in their own modules.
        .target(name: "OddsCommandSupport", dependencies: [
            "OddsModel", "OddsJSON", "OddsOutput", "OddsTransport",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // What `make` passes of the build (commit, date, compiler) for `odds --version`.
        .target(name: "CBuildInfo"),
        .target(name: "CAllocator"),
        // A long recording line is mapped, not read (guarded against the file being cut short meanwhile).
        .target(name: "CFileMap"),
        // Margins, fair prices, expected value and arbitrage, exact (big integers only when 128 bits overflow).
        .target(name: "OddsValue", dependencies: ["OddsModel", "OddsFusion", "OddsStore", "OddsJSON", "OddsOutput", .product(name: "BigInt", package: "BigInt")]),
        // One row per real match across providers: matching and the fused view.
        .target(name: "OddsFusion", dependencies: ["OddsModel", "OddsStore"]),
        .target(name: "OddsFuzz", dependencies: ["OddsModel", "OddsJSON", "OddsTransport", "OddsProviders"]),
        .target(name: "OddsDashboard", dependencies: ["OddsModel", "OddsStore", "OddsOutput", "OddsFusion", "OddsValue", "OddsAlerts"]),
        .systemLibrary(name: "CNcursesw"),
        .target(name: "OddsTerminal", dependencies: ["CNcursesw", "OddsDashboard"]),
        .target(name: "OddsJSON"),
        .target(name: "OddsStore", dependencies: ["OddsModel"]),
        // A memory of every change: the writer, the reader, one backend protocol, its SQLite and PostgreSQL backends.
        .target(name: "OddsHistory", dependencies: [
            "OddsModel", "OddsStore", "OddsFusion",
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        ]),
        .target(name: "OddsOutput", dependencies: ["OddsModel", "OddsJSON", "OddsStore"]),
        // Alerts: the rule grammar and its parser, the evaluator over the change stream, and delivery.
        // Bets: the ledger's grading (closing-line value, settlement from the final score).
        .target(name: "OddsBets", dependencies: ["OddsModel", "OddsFusion", "OddsValue", "OddsHistory"]),
        .target(name: "OddsAlerts", dependencies: ["OddsModel", "OddsStore", "OddsJSON", "OddsOutput", "OddsTransport", "OddsValue"]),
        .target(name: "OddsTransport", dependencies: [
            "OddsModel", "OddsJSON", "CFileMap",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
            .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
            .product(name: "NIOWebSocket", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .target(name: "OddsPulseScore", dependencies: ["OddsModel", "OddsJSON", "OddsTransport", "OddsOutput", "OddsCommandSupport", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .target(name: "OddsTickOdds", dependencies: ["OddsModel", "OddsJSON", "OddsTransport", "OddsOutput", "OddsCommandSupport", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                                                     .product(name: "NIOConcurrencyHelpers", package: "swift-nio")]),
        .target(name: "OddsBoltOdds", dependencies: ["OddsModel", "OddsJSON", "OddsStore", "OddsTransport", "OddsOutput", "OddsCommandSupport", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                                                     .product(name: "NIOConcurrencyHelpers", package: "swift-nio")]),
        .target(name: "OddsSportsAPI", dependencies: ["OddsModel", "OddsJSON", "OddsStore", "OddsTransport", "OddsOutput", "OddsCommandSupport", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                                                      .product(name: "NIOConcurrencyHelpers", package: "swift-nio")]),
        .target(name: "OddsProviders", dependencies: ["OddsModel", "OddsTransport", "OddsPulseScore", "OddsTickOdds", "OddsBoltOdds",
                                                      "OddsSportsAPI"]),
        .target(name: "OddsSimulator", dependencies: [
            "OddsModel", "OddsJSON",
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOWebSocket", package: "swift-nio"),
        ]),
        // Fault switches for tests only: the product never links them.
        .target(name: "OddsSimulatorFaults", dependencies: ["OddsSimulator"]),
        // Helpers and fixtures shared by the three test targets (not part of the product).
        .target(name: "OddsTestSupport", dependencies: [
            "OddsModel", "OddsTransport", "OddsSimulator",
            .product(name: "Logging", package: "swift-log"),
        ], path: "Tests/OddsTestSupport", resources: [.copy("Fixtures")]),
        // `swift test` runs all three; `swift test --filter OddsUnitTests` (or Integration, EndToEnd) one of them.
        // Unit: no sockets, no processes.
        .testTarget(name: "OddsUnitTests", dependencies: testDependencies),
        // Integration: clients against the simulator over loopback, in process.
        .testTarget(name: "OddsIntegrationTests", dependencies: testDependencies),
        // End to end: the built `odds` binary, as a user runs it (and the dashboard in tmux).
        .testTarget(name: "OddsEndToEndTests", dependencies: testDependencies),
    ]
)
