import ArgumentParser
import Foundation
import SwipeCLI
import SwipeCommandLine
import SwipeStore

/// `swipe export --as V [FILE]`: everything the store holds about the
/// viewer, as one versioned JSON document (Documentation/PersonalData.md).
struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write everything the store holds about the viewer as one JSON document.",
        discussion: """
            To standard output, or to FILE: written beside it first and renamed into
            place, so FILE is either the old one or the whole new document (mode 0600).
            Example: swipe export --as m-1 m-1.json
            """)

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var viewer: ViewerOptions
    @Argument(help: ArgumentHelp("Where to write it (default: standard output).", valueName: "FILE")) var file: String?

    func run() throws {
        try ExitStatus.reporting {
            let store = try database.openExisting()
            let id = try viewer.resolve(in: store)
            let document = try store.exportPersonalData(viewer: id, at: nil).json
            if let file {
                try AtomicFile.write(document, to: file)
                var stderr = StandardError()
                stderr.write("swipe: wrote \(TerminalText.oneLine(id))'s data to \(TerminalText.oneLine(file))\n")
            } else {
                var out = StandardOutput()
                out.write(document)
            }
        }
    }
}

/// A file replaced whole or not at all: written to a temporary file in the
/// same folder, flushed to disk, then renamed over the target.
enum AtomicFile {
    struct Failure: ExitCoded, CustomStringConvertible {
        var exitStatus: Int32 { ExitStatus.cannotCreate }
        var path: String
        var what: String
        var code: Int32
        var description: String { "\(path): cannot \(what): \(String(cString: strerror(code)))" }
    }

    static func write(_ text: String, to path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let temporary = (folder.isEmpty ? "" : folder + "/") + ".\(name).\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Failure(path: temporary, what: "create it", code: errno) }
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
