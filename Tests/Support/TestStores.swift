import Foundation
import SwipeCore
import SwipePostgres
import SwipeSQLite
import SwipeStore

/// Fresh databases for one test, on either backend, removed when the value
/// is dropped. Suites keep one as a stored property, as they keep a
/// `TemporaryFolder`: Swift Testing makes a new suite instance, and so new
/// databases, for every test and every argument.
///
/// - SQLite: a file `NAME.sqlite` in `folder`.
/// - PostgreSQL: a database `swipe_test_<uuid>` made with CREATE DATABASE on
///   the cluster in `$SWIPE_TEST_PG`, never shared with another test, and
///   dropped (WITH (FORCE): connections still open are ended) by `deinit`.
///
/// The same name on the same backend is the same database, so a test can
/// open it again, from another process too (`location` is what `--db` takes).
public final class TestStores: @unchecked Sendable {
    /// The test's folder: SQLite files, CSV files, anything else.
    public let folder: TemporaryFolder
    private let lock = NSLock()
    private var made: [String: String] = [:]
    private var postgresDatabases: [String] = []

    public init(_ prefix: String = "swipe-tests") { folder = TemporaryFolder(prefix) }

    deinit {
        guard !postgresDatabases.isEmpty, let admin = try? PostgresTestServer.requireURI(),
            let connection = try? PGConnection(uri: admin)
        else { return }
        for name in postgresDatabases {
            guard let quoted = try? connection.quotedIdentifier(name) else { continue }
            try? connection.execute("DROP DATABASE IF EXISTS " + quoted + " WITH (FORCE)")
        }
    }

    /// Where the test's database `name` on `backend` is: a file path (SQLite,
    /// not created here) or a URI (PostgreSQL, an empty database made now),
    /// what `swipe --db` takes.
    public func location(_ backend: TestBackend, _ name: String = "test") throws -> String {
        let key = backend.rawValue + "/" + name
        lock.lock()
        defer { lock.unlock() }
        if let location = made[key] { return location }
        let location: String
        switch backend {
        case .sqlite:
            location = folder.path + "/" + name + ".sqlite"
        case .postgres:
            let admin = try PostgresTestServer.requireURI()
            let database = "swipe_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
            let connection = try PGConnection(uri: admin)
            try connection.execute("CREATE DATABASE " + connection.quotedIdentifier(database))
            postgresDatabases.append(database)
            location = PostgresTestServer.uri(admin, database: database)
        }
        made[key] = location
        return location
    }

    /// What `swipe --db` takes for this test on `backend`: `sqlitePath` (a
    /// file the test chose, made by the first import) on SQLite, the URI of a
    /// fresh empty database on PostgreSQL.
    public func database(_ backend: TestBackend, sqlite sqlitePath: String) throws -> String {
        switch backend {
        case .sqlite: return sqlitePath
        case .postgres: return try location(.postgres)
        }
    }

    /// Opens the test's database `name` on `backend` (made empty on first
    /// use): `create` as `swipe import` opens it, `readOnly` as the reading
    /// commands do.
    public func open(
        _ backend: TestBackend, _ name: String = "test", create: Bool = true,
        readOnly: Bool = false
    ) throws -> any SwipeDatabase {
        let location = try location(backend, name)
        switch backend {
        case .sqlite: return try SQLiteStore(path: location, create: create, readOnly: readOnly)
        case .postgres: return try openPostgresStore(uri: location, create: create, readOnly: readOnly)
        }
    }

    /// A new database on `backend` holding profiles with the given ids
    /// (named "Name ID", age 30), in that order.
    public func store(_ backend: TestBackend, profiles ids: [String] = [], _ name: String = "test") throws
        -> any SwipeDatabase
    {
        let store = try open(backend, name)
        for id in ids { try store.upsert(Profile(id: id, name: "Name " + id, age: 30)) }
        return store
    }
}
