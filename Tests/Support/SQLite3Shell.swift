import Foundation

/// Runs the `sqlite3` shell on `path` in another process, which opens the
/// database, runs `sql` and closes it: what another program beside swipe
/// does. Returns what it printed (stdout and stderr), trimmed.
public func sqlite3Elsewhere(_ path: String, _ sql: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    process.arguments = [path, sql]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}
