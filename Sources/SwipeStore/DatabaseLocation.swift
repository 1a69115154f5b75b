import Foundation

/// How the database file comes into being. Which path to use (an option,
/// the environment, the XDG default) is the executable's business.
public enum DatabaseLocation {
    /// Makes sure `path` exists as a file, creating missing folders with mode
    /// 0700 and the file with mode 0600 (profiles and decisions are personal).
    /// An existing file is left as it is.
    ///
    /// Returns what it made, outermost folder first, the file last.
    ///
    /// - Throws: `DatabaseOpenError.cannotCreate` when a folder or the file cannot be made.
    @discardableResult
    public static func ensureFile(at path: String) throws -> [String] {
        if access(path, F_OK) == 0 { return [] }
        var made: [String] = []
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty { try ensureFolder(folder, for: path, made: &made) }
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if fd < 0 {
            if errno == EEXIST { return made }
            throw DatabaseOpenError.cannotCreate(path: path, reason: String(cString: strerror(errno)))
        }
        close(fd)
        return made + [path]
    }

    /// The folder holding `path` ("." for a bare file name).
    public static func folder(of path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        return folder.isEmpty ? "." : folder
    }

    private static func ensureFolder(_ folder: String, for path: String, made: inout [String]) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw DatabaseOpenError.cannotCreate(path: path, reason: "\(folder) is not a folder")
            }
            return
        }
        let parent = (folder as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != folder { try ensureFolder(parent, for: path, made: &made) }
        if mkdir(folder, 0o700) != 0 {
            if errno == EEXIST { return }
            throw DatabaseOpenError.cannotCreate(path: path, reason: "\(folder): \(String(cString: strerror(errno)))")
        }
        made.append(folder)
    }
}

/// What opening a database for `swipe import` made: the file (and its
/// folders), or the schema in a file that was empty. A first import that
/// fails undoes it, so a later command still says "no such database" rather
/// than finding an empty one.
public struct DatabaseCreation: Hashable, Sendable {
    /// The database file.
    public let path: String
    /// Folders and the file that did not exist before, outermost first;
    /// empty when the file existed with 0 bytes.
    public let made: [String]

    /// Puts things back as they were: the file (and its -wal, -shm and
    /// -journal) removed, or truncated to 0 bytes when it existed empty,
    /// and the folders made for it removed when they are still empty. Call
    /// it after the `SQLiteStore` has been released (its connection closed).
    public func undo() {
        for suffix in ["-wal", "-shm", "-journal"] { unlink(path + suffix) }
        if made.last == path { unlink(path) } else { truncate(path, 0) }
        for folder in made.dropLast().reversed() { rmdir(folder) }
    }

    public init(path: String, made: [String]) {
        self.path = path
        self.made = made
    }
}
