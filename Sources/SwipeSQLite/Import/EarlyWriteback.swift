#if canImport(Glibc)
    import Glibc
#endif

/// Starts the kernel writing a database's dirty pages to disk while a long
/// transaction is still running, so that the commit's sync finds most of
/// them written.
///
/// Without it, a first import of a million profiles leaves about 290 MB in
/// the page cache for the commit's `fdatasync`, which then takes 0.40–0.47 s
/// of a 2.2 s import on this machine's disk; started every 16,384 rows, the
/// writing overlaps the parsing and inserting, and about 0.03 s are left
/// (strace). It changes when pages reach the disk, never what can be there
/// after a crash: a page SQLite has written may be written back by the
/// kernel at any moment anyway, and the journal's sync before it is
/// SQLite's, as before.
///
/// Linux's `sync_file_range(…, SYNC_FILE_RANGE_WRITE)` starts the writing
/// and does not wait for it. It is found at run time (glibc's header hides
/// it from Swift without `_GNU_SOURCE`); elsewhere this does nothing. Both
/// the database file and its WAL are nudged: a rollback-journal import
/// writes the first, an import that stays in WAL the second.
package final class EarlyWriteback {
    /// Rows between two nudges: about 4.7 MB of profiles.
    private static let rowInterval = 16_384

    private typealias SyncFileRange = @convention(c) (Int32, Int64, Int64, UInt32) -> Int32
    private static let syncFileRange: SyncFileRange? = {
        #if os(Linux)
            guard let symbol = dlsym(nil, "sync_file_range") else { return nil }
            return unsafeBitCast(symbol, to: SyncFileRange.self)
        #else
            return nil
        #endif
    }()
    /// `SYNC_FILE_RANGE_WRITE`: start writing the dirty pages, do not wait.
    private static let startWriting: UInt32 = 2

    private let paths: [String]
    // Touched by one thread (the import's reading thread), once a row: no
    // run-time exclusivity check.
    /// Each path's read-only descriptor once it could be opened (the WAL may
    /// appear only later), else -1.
    @exclusivity(unchecked) private var descriptors: [Int32]
    @exclusivity(unchecked) private var rowsSinceNudge = 0

    /// For the SQLite database at `path` (its `-wal` too).
    package init(databasePath path: String) {
        paths = [path, path + "-wal"]
        descriptors = Array(repeating: -1, count: paths.count)
    }

    deinit {
        for descriptor in descriptors where descriptor >= 0 { close(descriptor) }
    }

    /// Counts `rows` written and nudges the kernel every `rowInterval` rows.
    package func wrote(rows: Int = 1) {
        rowsSinceNudge += rows
        if rowsSinceNudge >= Self.rowInterval {
            rowsSinceNudge = 0
            nudge()
        }
    }

    /// Asks the kernel to start writing every dirty page of the files now.
    /// Failures are ignored: this is only ever a head start.
    private func nudge() {
        guard let syncFileRange = Self.syncFileRange else { return }
        for index in paths.indices {
            if descriptors[index] < 0 { descriptors[index] = open(paths[index], O_RDONLY | O_CLOEXEC) }
            if descriptors[index] >= 0 { _ = syncFileRange(descriptors[index], 0, 0, Self.startWriting) }
        }
    }
}
