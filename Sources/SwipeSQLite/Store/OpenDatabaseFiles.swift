import Foundation
import SwipeStore

/// The database files this process has SQLite connections open on, by
/// device and inode.
///
/// Why it exists: closing *any* descriptor of a file drops every POSIX lock
/// the process holds on that file, its SQLite connections' included
/// (sqlite.org/howtocorrupt.html §2.2). `Schema.precheck` reads a file's
/// header through a descriptor of its own before SQLite touches it; done
/// while a connection of this process has the file open, the close would
/// drop that connection's shared lock, and another process's last close
/// would then checkpoint and remove the WAL under it ("database disk image
/// is malformed"). So `SQLiteStore` prechecks only files no live connection of
/// this process holds (those were identified when that connection opened),
/// and does so under `lock`, which `SQLiteConnection` also takes to register, so
/// no connection can appear on the file between the check and the close.
enum OpenDatabaseFiles {
    struct FileID: Hashable {
        let device: UInt64
        let inode: UInt64
    }

    /// Held across a precheck and the connection open that follows it.
    static let lock = NSRecursiveLock()
    nonisolated(unsafe) private static var counts: [FileID: Int] = [:]

    /// The file at `path`, or nil when there is none.
    static func id(of path: String) -> FileID? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileID(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// True when a connection of this process has the file at `path` open.
    static func isOpen(_ path: String) -> Bool {
        guard let file = id(of: path) else { return false }
        return lock.withLock { counts[file, default: 0] > 0 }
    }

    /// Counts a connection opened on `path`; pass the result to `closed`.
    static func opened(_ path: String) -> FileID? {
        guard let file = id(of: path) else { return nil }
        lock.withLock { counts[file, default: 0] += 1 }
        return file
    }

    /// Uncounts a connection registered by `opened`.
    static func closed(_ file: FileID?) {
        guard let file else { return }
        lock.withLock {
            let left = counts[file, default: 1] - 1
            counts[file] = left > 0 ? left : nil
        }
    }
}
