// swift-tools-version:6.0
import PackageDescription

// Layers (see README "Architecture"): dependencies point down only.
//
//   swipe (executable)  ArgumentParser commands, libedit loop; `serve`/`link` run swipe-serve
//   swipe-serve (exec.) `swipe serve` and `swipe link`: the only program with the web server
//   SwipeCommandLine    what both programs share: --db, exit codes, stdout/stderr, version
//   SwipeServer         `swipe serve`: HTTP + WebSocket driver of the REPL session, page, tokens
//   SwipeCLI            REPL command parser, session, renderers, output formats
//   SwipeSQLite         the SQLite backend: connection, schema, dialect, feed, import writers, driver
//   SwipePostgres       the PostgreSQL backend: libpq wrapper, schema, feed, COPY import, relay, driver
//   SwipeCSV            streaming RFC 4180 reader, import pipeline, row validation
//   SwipeStore          backend-neutral: the rules over a SQL executor, the role protocols
//                       composed as SwipeDatabase, domain types, errors
//   SwipeCore           pure Swift deck state machine and physics (no I/O)
//   CSQLite, CLibPQ, CEditLine  system-library shims
let package = Package(
    name: "swipe",
    products: [
        .executable(name: "swipe", targets: ["swipe"]),
        // `swipe serve` and `swipe link`, run by `swipe` (README "The deck in a browser"):
        // a program of its own so `swipe` builds without the web server's dependencies.
        .executable(name: "swipe-serve", targets: ["swipe-serve"]),
        .library(name: "SwipeCore", targets: ["SwipeCore"]),
        .library(name: "SwipeStore", targets: ["SwipeStore"]),
        .library(name: "SwipeSQLite", targets: ["SwipeSQLite"]),
        .library(name: "SwipePostgres", targets: ["SwipePostgres"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.0"),
        // `swipe serve` (SwipeServer): HTTP/WebSocket, HMAC tokens, graceful shutdown.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        // `/metrics`: counted through swift-metrics, written in Prometheus's text format.
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        // `make docs`: the DocC catalogs of SwipeCore and SwipeStore.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
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
        .target(name: "SwipeStore", dependencies: ["SwipeCore"]),
        .target(name: "SwipeCSV", dependencies: ["SwipeStore", "SwipeCore"]),
        .target(
            name: "SwipeSQLite", dependencies: ["SwipeStore", "SwipeCSV", "SwipeCore", "CSQLite"],
            // schema.sql, compiled into the binary (the top-level file links to it).
            resources: [.embedInCode("Store/schema.sql")]
        ),
        // The typed core every interface drives: commands, the session that runs
        // them against the deck and the store, and their JSON (Documentation/Architecture.md).
        .target(name: "SwipeSession", dependencies: ["SwipeCore", "SwipeStore"]),
        // The REPL's text: the picture, the lists, the line editor's completion.
        .target(name: "SwipeCLI", dependencies: ["SwipeSession", "SwipeCore", "SwipeStore"]),
        .target(
            name: "SwipeServer",
            dependencies: [
                // No backend: the database is any SwipeDatabase and the match relay any
                // MatchRelay, both chosen by the executable (a DatabaseDriver).
                "SwipeSession", "SwipeStore", "SwipeCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            // The page: plain HTML, CSS and JavaScript, compiled into the binary.
            resources: [
                .embedInCode("Page/index.html"), .embedInCode("Page/app.js"), .embedInCode("Page/app.css"),
                // Photos in the detail view (Documentation/Photos.md).
                .embedInCode("Page/photos.js"), .embedInCode("Page/photos.css"),
                .embedInCode("Page/me.js"),
                // The Me view's photos: upload, remove, reorder.
                .embedInCode("Page/upload.js"), .embedInCode("Page/upload.css"),
                .embedInCode("Page/account.js"), .embedInCode("Page/account.css"),
                .embedInCode("Page/moderation.js"), .embedInCode("Page/moderation.css"),
                .embedInCode("Page/insights.js"), .embedInCode("Page/insights.css"),
                .embedInCode("Page/chat.js"), .embedInCode("Page/chat.css"),
            ]
        ),
        // What both programs share: --db and the backend it names, exit codes,
        // standard output and error, the version.
        .target(
            name: "SwipeCommandLine",
            dependencies: [
                "SwipeSession", "SwipeStore", "SwipeSQLite", "SwipeCSV", "SwipePostgres", "SwipeCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "swipe",
            dependencies: [
                "SwipeCommandLine", "SwipeCLI", "SwipeSession", "SwipeStore", "SwipeSQLite", "SwipeCSV",
                "SwipePostgres", "SwipeCore",
                "CEditLine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "swipe-serve",
            dependencies: [
                "SwipeCommandLine", "SwipeServer", "SwipeSession", "SwipeStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "swipe-bench",
            dependencies: [
                "SwipeStore", "SwipeSQLite", "SwipeCSV", "SwipeCore", "CSQLite", "SwipeServer", "SwipeSession",
                "SwipePostgres", .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Helpers shared by the test targets (temporary folders, a fresh database
        // per test on either backend); not a product.
        .target(
            name: "SwipeTestSupport",
            dependencies: ["SwipeStore", "SwipeSQLite", "SwipeCSV", "SwipeCore", "SwipePostgres"],
            path: "Tests/Support"),
        .testTarget(
            name: "SwipeCoreTests",
            dependencies: ["SwipeCore", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(
            name: "SwipeStoreTests",
            dependencies: [
                "SwipeStore", "SwipeSQLite", "SwipeCSV", "SwipeCore", "CSQLite", "SwipeTestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
                // Photo hashes are held to swift-crypto's SHA-256.
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The CSV reader on its own: bytes in, fields or a typed error out.
        .testTarget(
            name: "SwipeCSVTests",
            dependencies: [
                "SwipeCSV", "SwipeStore", "SwipeTestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        // SQLite itself: schema text and migrations, file checks, the checkpointer, query plans.
        .testTarget(
            name: "SwipeSQLiteTests",
            dependencies: ["SwipeSQLite", "SwipeStore", "SwipeCSV", "SwipeCore", "CSQLite", "SwipeTestSupport"]
        ),
        .testTarget(
            name: "SwipeCLITests",
            dependencies: [
                "SwipeCLI", "SwipeSession", "SwipeStore", "SwipeSQLite", "SwipeCSV", "SwipeCore", "SwipeTestSupport",
            ]),
        .testTarget(
            name: "SwipeServerTests",
            dependencies: [
                "SwipeServer", "SwipeSession", "SwipeStore", "SwipeSQLite", "SwipeCSV", "SwipeCore", "SwipePostgres",
                "SwipeTestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWSTesting", package: "hummingbird-websocket"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "SwipeE2ETests",
            dependencies: [
                "swipe", "SwipeStore", "SwipeSQLite", "SwipeCSV", "SwipeCLI", "SwipeSession", "SwipeServer",
                "SwipePostgres",
                "SwipeTestSupport",
            ]),

        // PostgreSQL (README "PostgreSQL"): libpq, a small synchronous wrapper
        // over it, and PostgresStore, which `--db postgres://…` opens.
        .systemLibrary(
            name: "CLibPQ",
            path: "Sources/CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),
        // Never SwipeSQLite: PostgresStore conforms to SwipeStore's SwipeDatabase on its own.
        .target(
            name: "SwipePostgres",
            dependencies: [
                "CLibPQ", "SwipeStore", "SwipeCSV", "SwipeCore", .product(name: "Logging", package: "swift-log"),
            ],
            // schema.postgres.sql, compiled into the binary (the top-level file links to it).
            resources: [.embedInCode("Store/schema.postgres.sql")]
        ),
        // SwipeSQLite to hold schema.postgres.sql to schema.sql, and both backends to the same behaviour.
        .testTarget(
            name: "SwipePostgresTests",
            dependencies: ["SwipePostgres", "SwipeStore", "SwipeSQLite", "SwipeCSV", "SwipeCore", "SwipeTestSupport"]),
    ]
)
