import Foundation

/// The swipe database: profiles, the decision ledger, matches and settings,
/// over one `Connection`. Extensions hold each part (`Store+Profiles`,
/// `Store+Ledger`, `Store+Queries`, `Store+Settings`); `SQLiteFeed` reads it.
public final class Store {
    /// The underlying connection, for callers that need raw SQL (tests, tools).
    public let connection: Connection

    /// Opens the database at `path`, creating it (file 0600, folders 0700) and
    /// its schema when missing, migrating an older one and refusing a newer one.
    /// With `create: false` a missing file is refused and nothing is made
    /// (commands that only read: a mistyped path must not leave a database behind).
    ///
    /// - Throws: `StoreError.cannotCreate`, `StoreError.missing`, `StoreError.newerSchema`, `SQLiteError`.
    public init(path: String, synchronous: Connection.Synchronous = .normal, create: Bool = true) throws {
        if create {
            try DatabaseLocation.ensureFile(at: path)
        } else if access(path, F_OK) != 0, errno == ENOENT || errno == ENOTDIR {
            throw StoreError.missing(path: path)
        }
        connection = try Connection(path: path, synchronous: synchronous, create: create)
        try Schema.prepare(connection)
    }

    /// The internal key of the profile with external id `id`, or nil.
    public func profileKey(id: String) throws -> Int? {
        try connection.statement("SELECT key FROM profiles WHERE id = ?1").bind(.text(id)).first { $0.int(0) }
    }

    /// The internal key of `id`, or `StoreError.unknownProfile`.
    func requireKey(_ id: String) throws -> Int {
        guard let key = try profileKey(id: id) else { throw StoreError.unknownProfile(id) }
        return key
    }
}
