import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NIOPosix
import SwipeCSV
import SwipeCore
import SwipeSQLite
import SwipeStore
import SwipeTestSupport
import Synchronization

@testable import SwipeServer

/// A database with a few profiles and a server over it, run in-process on a
/// free loopback port; every log line it writes is kept for the test.
final class ServerFixture: Sendable {
    let folder = TemporaryFolder("swipe-serve")
    let path: String
    let logs = LogCapture()

    init(profiles: [String] = ["alice", "bob", "carol", "dave", "erin"]) throws {
        path = folder.path + "/serve.sqlite"
        let store = try SQLiteStore(path: path)
        for id in profiles { try store.upsert(Profile(id: id, name: "Name " + id, age: 30)) }
    }

    /// alice placed in Lisbon, and alice and bob matched (bob liked first):
    /// the start of the tests of a person's own data. Returns the store.
    @discardableResult func matchAliceAndBob() throws -> SQLiteStore {
        let store = try SQLiteStore(path: path, create: false)
        try store.upsert(
            Profile(
                id: "alice", name: "Name alice", age: 30, gender: "f", location: Location(lat: 38.7223, lon: -9.1393)))
        _ = try store.record(viewer: "bob", profile: "alice", decision: .like, via: .button)
        _ = try store.record(viewer: "alice", profile: "bob", decision: .like, via: .button)
        return store
    }

    /// A token for `viewer` signed with this database's secret, as `swipe link` makes it.
    func token(for viewer: String, expiry: Date = Date().addingTimeInterval(3600)) throws -> String {
        let secret = try SQLiteStore(path: path, create: false).accessSecret(create: true)!
        return AccessTokens(secret: secret).issue(viewer: viewer, expiry: expiry)
    }

    func withServer(
        _ configuration: ServeConfiguration = ServeConfiguration.testing(),
        _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        let path = path
        let backend = try DatabaseServerBackend(writes: .oneAtATime) { try SQLiteStore(path: path, create: false) }
        let logger = Logger(label: "swipe.serve") { [logs] _ in logs.handler }
        // A pool of its own: the shared one also serves the other tests' blocking work.
        let pool = NIOThreadPool(numberOfThreads: 4)
        pool.start()
        do {
            let server = try await SwipeServer(
                backend: backend, configuration: configuration, logger: logger, threadPool: pool)
            do {
                try await server.application().test(.live) { client in try await body(client) }
            } catch {
                await server.stop()
                throw error
            }
            await server.stop()
        } catch {
            try? await pool.shutdownGracefully()
            throw error
        }
        try await pool.shutdownGracefully()
    }

    /// The viewer's standing and undone decisions, read straight from the file.
    func decisions(of viewer: String) throws -> [StoredDecisionRow] {
        try SQLiteStore(path: path, create: false).history(HistoryQuery(viewer: viewer, profile: nil)).map {
            StoredDecisionRow(profile: $0.profile, decision: $0.decision.rawValue, undone: $0.undoneAt != nil)
        }
    }
}

struct StoredDecisionRow: Hashable {
    var profile: String
    var decision: String
    var undone: Bool
}

/// Keeps every log line (message and metadata) a logger writes.
final class LogCapture: Sendable {
    private let lines = Mutex<[String]>([])

    var all: [String] { lines.withLock { $0 } }

    var handler: Handler { Handler(capture: self) }

    struct Handler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .info

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            let text =
                "\(event.level) \(event.message) "
                + merged.sorted { $0.key < $1.key }
                .map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            capture.lines.withLock { $0.append(text) }
        }
    }
}
