// swift-tools-version:6.0
import PackageDescription

/// Targets that do I/O through SwiftNIO keep Swift 5 mode: NIO's callback APIs and channel handlers
/// predate strict concurrency checking. The pure targets (model, store, output) use Swift 6 mode.
let swift5: [SwiftSetting] = [.swiftLanguageMode(.v5)]

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
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
    ],
    targets: [
        .executableTarget(name: "odds", dependencies: ["OddsCLI"]),
        .target(name: "OddsCLI", dependencies: [
            "OddsModel", "OddsJSON", "OddsStore", "OddsOutput", "OddsTransport", "OddsProviders", "OddsPulseScore",
            "OddsTickOdds", "OddsSimulator", "OddsDashboard", "OddsTerminal",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "TOMLKit", package: "TOMLKit"),
        ], swiftSettings: swift5),
        .executableTarget(name: "OddsBench", dependencies: ["OddsDashboard", "OddsTerminal", "OddsStore", "OddsModel",
                                                          "OddsProviders", "OddsTransport", "OddsFuzz", "OddsJSON", "OddsTickOdds",
                                                          .product(name: "Logging", package: "swift-log")],
                          swiftSettings: swift5),
        .target(name: "OddsModel"),
        .target(name: "OddsFuzz", dependencies: ["OddsModel", "OddsJSON", "OddsTransport", "OddsPulseScore", "OddsTickOdds"],
                swiftSettings: swift5),
        .target(name: "OddsDashboard", dependencies: ["OddsModel", "OddsStore", "OddsOutput"]),
        .systemLibrary(name: "CNcursesw"),
        .target(name: "OddsTerminal", dependencies: ["CNcursesw", "OddsDashboard"], swiftSettings: swift5),
        .target(name: "OddsJSON"),
        .target(name: "OddsStore", dependencies: ["OddsModel"]),
        .target(name: "OddsOutput", dependencies: ["OddsModel", "OddsJSON", "OddsStore"]),
        .target(name: "OddsTransport", dependencies: [
            "OddsModel", "OddsJSON",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOWebSocket", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
        ], swiftSettings: swift5),
        .target(name: "OddsPulseScore", dependencies: ["OddsModel", "OddsJSON", "OddsTransport"], swiftSettings: swift5),
        .target(name: "OddsTickOdds", dependencies: ["OddsModel", "OddsJSON", "OddsTransport",
                                                     .product(name: "NIOConcurrencyHelpers", package: "swift-nio")],
                swiftSettings: swift5),
        .target(name: "OddsProviders", dependencies: ["OddsModel", "OddsTransport", "OddsPulseScore", "OddsTickOdds"],
                swiftSettings: swift5),
        .target(name: "OddsSimulator", dependencies: [
            "OddsModel", "OddsJSON",
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOWebSocket", package: "swift-nio"),
        ], swiftSettings: swift5),
        .testTarget(name: "OddsTests", dependencies: [
            "OddsModel", "OddsJSON", "OddsStore", "OddsOutput", "OddsTransport", "OddsProviders",
            "OddsPulseScore", "OddsTickOdds", "OddsSimulator", "OddsCLI", "OddsDashboard", "OddsFuzz",
            .product(name: "Logging", package: "swift-log"),
        ], resources: [.copy("Fixtures")], swiftSettings: swift5),
    ]
)
