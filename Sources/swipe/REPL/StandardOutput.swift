import CEditLine
import Foundation

/// Standard output as a `TextOutputStream`, flushed on demand: JSON mode
/// flushes after every object so a program reading the pipe gets each answer
/// as soon as it is written.
struct StandardOutput: TextOutputStream {
    mutating func write(_ string: String) {
        fputs(string, swipe_stdout())
    }

    func flush() {
        fflush(swipe_stdout())
    }
}
