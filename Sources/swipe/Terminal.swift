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

    /// The width of the terminal on standard output, or nil (not a terminal).
    static var columns: Int? {
        var size = winsize()
        guard isatty(STDOUT_FILENO) == 1, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else {
            return nil
        }
        return Int(size.ws_col)
    }
    /// Colour on standard output: only on a terminal, never with `NO_COLOR`.
    static var stdoutWantsColor: Bool {
        isatty(STDOUT_FILENO) == 1 && (ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
    }
}
