import Foundation

/// Runs the built `swipe` executable as a separate process (stdin from
/// /dev/null), as a user or a script would.
enum SwipeBinary {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// `swipe` sits next to the test bundle in the build folder.
    static let url: URL = {
        let bundle = Bundle.main.bundleURL
        let candidates = [bundle, bundle.deletingLastPathComponent()].map { $0.appendingPathComponent("swipe") }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }()

    /// `stdin`: a file to read standard input from (default /dev/null).
    static func run(
        _ arguments: [String], executable: URL = url, environment: [String: String] = [:], stdin: String = "/dev/null"
    ) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["SWIPE_AS"] = nil
        env["SWIPE_DB"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env
        process.standardInput = FileHandle(forReadingAtPath: stdin)
        // Output goes to files, not pipes, so neither stream can fill up and block the child.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("swipe-e2e-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outURL = folder.appendingPathComponent("out"), errURL = folder.appendingPathComponent("err")
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        try process.run()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: try String(contentsOf: outURL, encoding: .utf8),
            stderr: try String(contentsOf: errURL, encoding: .utf8))
    }
}
