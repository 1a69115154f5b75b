import Foundation

/// A file replaced whole or not at all: written to a temporary file in the
/// same folder (mode 0600: it is someone's data), flushed to disk, then
/// renamed over the target. `swipe export FILE` and the REPL's `me export
/// FILE` write their document so.
public enum AtomicFile {
    /// What could not be done to which file, and the system's reason.
    public struct Failure: Error, CustomStringConvertible {
        public var path: String
        public var what: String
        public var code: Int32
        public var description: String { "\(path): cannot \(what): \(String(cString: strerror(code)))" }
    }

    public static func write(_ text: String, to path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let temporary = (folder.isEmpty ? "" : folder + "/") + ".\(name).\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        // Named by the file asked for: the temporary name is ours, not the person's.
        guard fd >= 0 else { throw Failure(path: path, what: "create it", code: errno) }
        var failure: Failure?
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                failure = Failure(path: temporary, what: "write it", code: errno)
                break
            }
            written += count
        }
        if failure == nil && fsync(fd) != 0 { failure = Failure(path: temporary, what: "flush it", code: errno) }
        close(fd)
        if failure == nil && rename(temporary, path) != 0 {
            failure = Failure(path: path, what: "replace it", code: errno)
        }
        if let failure {
            unlink(temporary)
            throw failure
        }
    }
}
