extension Store {
    /// Another connection to the database `other` has open, for another
    /// thread of this process (`swipe serve` opens one per session).
    ///
    /// `init(path:)` identifies a file by reading its header through a file
    /// descriptor of its own, and closing that descriptor drops every POSIX
    /// lock this process holds on the file, the SQLite connections' included
    /// (sqlite.org/howtocorrupt.html §2.2). Another process then believes
    /// no one has the database open, and its last close checkpoints and
    /// removes the WAL under this process's feet ("database disk image is
    /// malformed"). The file was identified when `other` opened it, so this
    /// opens only through SQLite.
    public convenience init(sameDatabaseAs other: Store) throws {
        try self.init(opened: Connection(
            path: other.connection.path, synchronous: other.connection.synchronous, create: false))
    }
}
