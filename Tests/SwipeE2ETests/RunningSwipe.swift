import Foundation
import SwipeCSV
import SwipeSQLite
import SwipeStore

/// A `swipe` child process the test talks to while it runs: standard input
/// from a pipe or a file, standard output read line by line with a deadline,
/// standard error to a file. For killing it mid-flight and reading what it
/// acknowledged before.
final class RunningSwipe {
    let process = Process()
    private let input: FileHandle?
    private let output: Int32
    private var pending: [UInt8] = []
    /// How much of `pending` is known to hold no newline (keeps huge lines linear).
    private var scanned = 0
    private let stderrURL: URL

    /// Starts `swipe arguments`; stdin is `inputFile` when given, else a pipe (see `send`).
    init(_ arguments: [String], inputFile: String? = nil, folder: String) throws {
        process.executableURL = SwipeBinary.url
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["SWIPE_AS"] = nil
        environment["SWIPE_DB"] = nil
        process.environment = environment
        if let inputFile {
            process.standardInput = FileHandle(forReadingAtPath: inputFile)
            input = nil
        } else {
            let pipe = Pipe()
            process.standardInput = pipe
            input = pipe.fileHandleForWriting
        }
        let outPipe = Pipe()
        process.standardOutput = outPipe
        output = outPipe.fileHandleForReading.fileDescriptor
        stderrURL = URL(fileURLWithPath: folder + "/stderr-" + UUID().uuidString)
        FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: stderrURL)
        try process.run()
    }

    /// Writes `text` to the child's standard input.
    func send(_ text: String) { input?.write(Data(text.utf8)) }

    func closeInput() { try? input?.close() }

    /// The next line of standard output without its newline; nil at the end
    /// of output or when `deadline` passes first.
    func readLine(within seconds: Double = 60) -> String? {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while true {
            if let newline = pending[scanned...].firstIndex(of: 0x0A) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                scanned = 0
                return line
            }
            scanned = pending.count
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return nil }
            var poller = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(left.components.seconds * 1000 + 1))
            if ready <= 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = read(output, &chunk, chunk.count)
            if count <= 0 { return nil }
            pending += chunk[..<count]
        }
    }

    /// Waits, polling every millisecond, until `condition` holds; false when
    /// `seconds` pass first or the child exits.
    func waitUntil(within seconds: Double = 60, _ condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline && process.isRunning {
            if condition() { return true }
            usleep(1000)
        }
        return false
    }

    /// How far the child has read the file at `path` (its descriptor's
    /// offset, from /proc), or nil when it does not have it open.
    func readOffset(of path: String) -> Int? {
        let pid = process.processIdentifier
        guard let fds = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd") else { return nil }
        for fd in fds
        where (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)")) == path {
            guard let info = try? String(contentsOfFile: "/proc/\(pid)/fdinfo/\(fd)", encoding: .utf8) else { continue }
            let line = info.split(separator: "\n").first { $0.hasPrefix("pos:") }
            return line.flatMap { Int($0.dropFirst(4).trimmingCharacters(in: .whitespaces)) }
        }
        return nil
    }

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Waits for the child to end: its exit status, or the signal that ended it.
    func wait() -> (status: Int32, signalled: Bool) {
        closeInput()
        process.waitUntilExit()
        return (process.terminationStatus, process.terminationReason == .uncaughtSignal)
    }

    var stderr: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }
}

/// Checks on a database file made by the child, from outside it.
enum DatabaseCheck {
    /// `PRAGMA integrity_check`'s answer ("ok" for a sound file).
    static func integrity(_ path: String) throws -> String {
        let connection = try SQLiteConnection(path: path)
        return try connection.statement("PRAGMA integrity_check").bind().first { $0.text(0) } ?? ""
    }

    /// FNV-1a of `swipe profiles --format jsonl`: every profile's content, in order.
    static func profilesChecksum(_ db: String) throws -> (count: Int, hash: UInt64) {
        let result = try SwipeBinary.run(["profiles", "--db", db, "--format", "jsonl"])
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in result.stdout.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return (result.stdout.split(separator: "\n").count, hash)
    }
}
