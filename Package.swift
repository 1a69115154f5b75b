// swift-tools-version:6.0
import PackageDescription

// Layers (see README "Architecture"): dependencies point down only.
//
//   swipe (executable)  ArgumentParser commands, libedit loop, TTY detection
//   SwipeCLI            REPL command parser, session, renderers, output formats
//   SwipeStore          SQLite connection, schema, repositories, CSV reader, importer
//   SwipeCore           pure Swift deck state machine and physics (no I/O)
//   CSQLite, CEditLine  system-library shims
let package = Package(
    name: "swipe",
    products: [
        .executable(name: "swipe", targets: ["swipe"]),
        .library(name: "SwipeCore", targets: ["SwipeCore"]),
        .library(name: "SwipeStore", targets: ["SwipeStore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(
            name: "CEditLine",
            path: "Sources/CEditLine",
            providers: [.apt(["libedit-dev"])]
        ),
        .target(name: "SwipeCore"),
        .target(name: "SwipeStore", dependencies: ["SwipeCore", "CSQLite"]),
        .target(name: "SwipeCLI", dependencies: ["SwipeCore", "SwipeStore"]),
        .executableTarget(
            name: "swipe",
            dependencies: [
                "SwipeCLI", "SwipeStore", "SwipeCore", "CEditLine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "swipe-bench", dependencies: ["SwipeStore", "SwipeCore", "CSQLite", "SwipePostgres"]),
        // Helpers shared by the test targets (temporary folders); not a product.
        .target(name: "SwipeTestSupport", path: "Tests/Support"),
        .testTarget(
            name: "SwipeCoreTests",
            dependencies: ["SwipeCore", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(
            name: "SwipeStoreTests",
            dependencies: ["SwipeStore", "SwipeCore", "CSQLite", "SwipeTestSupport",
                           .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(name: "SwipeCLITests", dependencies: ["SwipeCLI", "SwipeStore", "SwipeCore", "SwipeTestSupport"]),
        .testTarget(name: "SwipeE2ETests", dependencies: ["swipe", "SwipeStore", "SwipeCLI", "SwipeTestSupport"]),

        // PostgreSQL (README "PostgreSQL (in progress)"): libpq and a small
        // synchronous wrapper over it, not yet wired into the store or the CLI.
        .systemLibrary(
            name: "CLibPQ",
            path: "Sources/CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),
        .target(name: "SwipePostgres", dependencies: ["CLibPQ"]),
        // SwipeStore only to hold schema.postgres.sql to schema.sql, side by side.
        .testTarget(name: "SwipePostgresTests", dependencies: ["SwipePostgres", "SwipeStore", "SwipeTestSupport"]),
    ]
)
