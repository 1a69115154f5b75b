import Foundation

/// Where the REPL keeps its line history (README, "Command line"):
/// `$XDG_STATE_HOME/swipe/history`, with `~/.local/state` when the variable
/// is unset or not absolute (as the XDG spec says to ignore relative paths).
enum HistoryFile {
    static func path(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        var state = environment["XDG_STATE_HOME"] ?? ""
        if !state.hasPrefix("/") {
            state = (environment["HOME"] ?? NSHomeDirectory()) + "/.local/state"
        }
        return state + "/swipe/history"
    }

    /// The path, after creating its folder readable only by the user (it
    /// records what was typed). Nil when the folder cannot be made: the
    /// session then runs without saved history.
    static func prepared(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        let file = path(environment: environment)
        let folder = (file as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            FileHandle.standardError.write(
                Data("swipe: history not saved: cannot create \(folder): \(error.localizedDescription)\n".utf8))
            return nil
        }
        return file
    }
}
