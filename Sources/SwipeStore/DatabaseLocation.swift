import Foundation

/// How the database file comes into being. Which path to use (an option,
/// the environment, the XDG default) is the executable's business.
public enum DatabaseLocation {
    /// Makes sure `path` exists as a file, creating missing folders with mode
    /// 0700 and the file with mode 0600 (profiles and decisions are personal).
    /// An existing file is left as it is.
    ///
    /// - Throws: `StoreError.cannotCreate` when a folder or the file cannot be made.
    public static func ensureFile(at path: String) throws {
        if access(path, F_OK) == 0 { return }
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty { try ensureFolder(folder, for: path) }
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if fd < 0 {
            if errno == EEXIST { return }
            throw StoreError.cannotCreate(path: path, reason: String(cString: strerror(errno)))
        }
        close(fd)
    }

    private static func ensureFolder(_ folder: String, for path: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw StoreError.cannotCreate(path: path, reason: "\(folder) is not a folder")
            }
            return
        }
        let parent = (folder as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != folder { try ensureFolder(parent, for: path) }
        if mkdir(folder, 0o700) != 0 && errno != EEXIST {
            throw StoreError.cannotCreate(path: path, reason: "\(folder): \(String(cString: strerror(errno)))")
        }
    }
}
