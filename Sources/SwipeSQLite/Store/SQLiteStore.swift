import CSQLite
import Foundation
import SwipeStore

/// The swipe database in one SQLite file, over one `SQLiteConnection`. The
/// rules (recording, undo, quotas, blocks, settings, stats, queries) are
/// SwipeStore's, written once for both backends (`SQLDatabase`, conformed to
/// at the end of this file); this type opens and identifies the file, and its
/// extensions hold what only SQLite does: `+Profiles` (the upsert that binds a
/// row in place, streamed reads), `+WriteBatch` (group commit), `+SwipeDatabase`
/// (the feed and the importers, Discovery/ and Import/).
public final class SQLiteStore {
    /// The underlying connection, for callers that need raw SQL (tests, tools).
    public let connection: SQLiteConnection

    /// What opening made, when it made the database (nil when the file
    /// already held one): a failed first import undoes it (`DatabaseCreation.undo`).
    public let creation: DatabaseCreation?

    /// Opens the swipe database at `path`.
    ///
    /// The file is identified before anything is written to it (`Schema.identify`):
    /// another program's SQLite file, a text file, or a schema version swipe
    /// never wrote is refused with `DatabaseOpenError.notSwipeDatabase`, and not a
    /// byte of it changes. With `create` (`swipe import` only) a missing or
    /// 0-byte file becomes a new database (file 0600, folders 0700); without,
    /// a missing file is `DatabaseOpenError.missing` and an empty one not a database.
    /// With `readOnly` the file is opened SQLITE_OPEN_READONLY, its journal
    /// mode is left alone and nothing is written (commands that only read).
    /// Otherwise it is switched to WAL, an older schema is migrated and a
    /// legacy version-1 file is stamped with swipe's application_id.
    ///
    /// - Throws: `DatabaseOpenError.cannotCreate`, `.missing`, `.notSwipeDatabase`,
    ///   `.permissionDenied`, `.newerSchema`, `.olderSchema`, `SQLiteError`.
    public init(
        path: String, synchronous: SQLiteConnection.Synchronous = .normal, create: Bool = true,
        readOnly: Bool = false
    ) throws {
        var creation: DatabaseCreation?
        if access(path, F_OK) != 0, errno == ENOENT || errno == ENOTDIR {
            guard create && !readOnly else { throw DatabaseOpenError.missing(path: path) }
            creation = DatabaseCreation(path: path, made: try DatabaseLocation.ensureFile(at: path))
        }
        do {
            try Self.checkPermissions(path: path, readOnly: readOnly)
            // Precheck and open under one lock: the precheck's descriptor must
            // not be closed while a connection of this process holds the file
            // (`OpenDatabaseFiles` says why), so a file one already holds was
            // identified then and is not read again behind SQLite's back.
            let (opened, identity) = try OpenDatabaseFiles.lock.withLock {
                if !OpenDatabaseFiles.isOpen(path), try Schema.precheck(path: path, create: create && !readOnly) {
                    guard create && !readOnly else { throw DatabaseOpenError.notSwipeDatabase(path: path) }
                    if creation == nil { creation = DatabaseCreation(path: path, made: []) }
                }
                // The connection stays local until nothing can fail, so that on
                // a failure it is closed before the creation is undone.
                return try Self.openIdentified(path: path, synchronous: synchronous, readOnly: readOnly)
            }
            if identity == .empty && !create { throw DatabaseOpenError.notSwipeDatabase(path: path) }
            if !readOnly {
                try opened.configureForWriting()
                try Schema.prepare(opened, identity: identity)
            }
            connection = opened
        } catch {
            creation?.undo()
            throw error
        }
        self.creation = creation
    }

    /// Opens and identifies `path`. A reader that cannot open a WAL
    /// database (it needs to create the -shm file beside it) reads it as
    /// immutable when the file system is read-only (nobody can change it
    /// then), and otherwise is told which folder lacks write permission.
    private static func openIdentified(
        path: String, synchronous: SQLiteConnection.Synchronous, readOnly: Bool
    ) throws -> (SQLiteConnection, Schema.Identity) {
        do {
            return try open(path: path, synchronous: synchronous, readOnly: readOnly, immutable: false)
        } catch let error as SQLiteError
            where readOnly && (error.primaryCode == SQLITE_CANTOPEN || error.primaryCode == SQLITE_READONLY)
        {
            let folder = DatabaseLocation.folder(of: path)
            guard access(folder, W_OK) != 0 else { throw error }
            guard errno == EROFS else {
                throw DatabaseOpenError.permissionDenied(
                    path: folder, need: "write",
                    why: "\(String(cString: strerror(errno))); reading \(path) in WAL mode needs its -shm file there")
            }
            return try open(path: path, synchronous: synchronous, readOnly: true, immutable: true)
        }
    }

    /// Opens `path` without writing and identifies it; a read-only
    /// connection also checks that it can be read as it is.
    private static func open(
        path: String, synchronous: SQLiteConnection.Synchronous, readOnly: Bool, immutable: Bool
    ) throws -> (SQLiteConnection, Schema.Identity) {
        let connection = try SQLiteConnection(
            path: path, synchronous: synchronous, create: false, readOnly: readOnly, immutable: immutable,
            configure: false)
        let identity = try Schema.identify(connection)
        if readOnly { try Schema.checkReadable(connection, identity: identity) }
        return (connection, identity)
    }

    /// Refuses, naming the file or folder and the permission, what SQLite
    /// would only report as "unable to open" or "readonly database".
    private static func checkPermissions(path: String, readOnly: Bool) throws {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            throw DatabaseOpenError.notSwipeDatabase(path: path)
        }
        if access(path, R_OK) != 0 {
            throw DatabaseOpenError.permissionDenied(path: path, need: "read", why: String(cString: strerror(errno)))
        }
        if readOnly { return }
        if access(path, W_OK) != 0 {
            throw DatabaseOpenError.permissionDenied(
                path: path, need: "write", why: "\(String(cString: strerror(errno))); this command records to it")
        }
        let folder = DatabaseLocation.folder(of: path)
        if access(folder, W_OK) != 0 {
            throw DatabaseOpenError.permissionDenied(
                path: folder, need: "write",
                why: "\(String(cString: strerror(errno))); SQLite keeps \(path)-wal and -shm there while writing")
        }
    }
}

/// The rules (SwipeStore's `SQLDatabase` extensions) run on this file's
/// connection: a write is one `BEGIN IMMEDIATE` transaction, or a savepoint
/// inside one already open (a batch); a read runs as it is.
extension SQLiteStore: SQLDatabase {
    public var executor: SQLiteConnection { connection }

    public func write<T>(_ body: () throws -> T) throws -> T { try connection.writeTransaction(body) }

    public func read<T>(_ body: () throws -> T) throws -> T { try body() }

    /// The erased rows' pages were zeroed as they were freed (`secure_delete`,
    /// set on every writing connection); their old copies in the WAL go
    /// with a checkpoint that truncates it. Not inside a transaction still
    /// open (a server's group commit): its own checkpoint follows.
    public func scrubAfterErase() {
        guard !connection.isInTransaction else { return }
        try? connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }
}
