import Foundation

/// Standard output as a `TextOutputStream` (buffered by the runtime's `print`).
struct StandardOutput: TextOutputStream {
    mutating func write(_ string: String) { print(string, terminator: "") }
}

/// Standard error as a `TextOutputStream`.
struct StandardError: TextOutputStream {
    mutating func write(_ string: String) { FileHandle.standardError.write(Data(string.utf8)) }
}

/// What the executable knows about its terminal; nothing below it does.
enum Terminal {
    static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }
    /// Colour on standard output: only on a terminal, never with `NO_COLOR`.
    static var stdoutWantsColor: Bool {
        isatty(STDOUT_FILENO) == 1 && (ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
    }
}
