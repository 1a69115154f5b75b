import Foundation
import SwipeSession

/// Standard output as a `TextOutputStream`: every byte swipe prints goes
/// through `OutputChannel.standard`, which checks each write.
package struct StandardOutput: TextOutputStream {
    package init() {}

    package mutating func write(_ string: String) { OutputChannel.standard.append(string) }

    /// Writes what is buffered; throws `OutputFailure` once a write has failed.
    package func flush() throws { try OutputChannel.standard.flush() }

    /// Throws `OutputFailure` if a write has already failed, without writing:
    /// for loops that print many rows, so they stop at the first failure.
    package func throwIfFailed() throws { try OutputChannel.standard.throwIfFailed() }
}

/// Standard error as a `TextOutputStream`.
package struct StandardError: TextOutputStream {
    package init() {}

    package mutating func write(_ string: String) { FileHandle.standardError.write(Data(string.utf8)) }
}

/// What the executable knows about its terminal; nothing below it does.
package enum Terminal {
    package static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }
    package static var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    /// The width of the terminal on standard output, or nil (not a terminal).
    package static var columns: Int? {
        var size = winsize()
        guard isatty(STDOUT_FILENO) == 1, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else {
            return nil
        }
        return Int(size.ws_col)
    }

    /// Colour on standard output: only on a terminal, never with `NO_COLOR`.
    package static var stdoutWantsColor: Bool {
        isatty(STDOUT_FILENO) == 1 && (ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
    }
}

/// The one place bytes go to standard output: buffered (64 KiB), written
/// with write(2), and every write checked. `print` and stdio would drop a
/// failed write (a full disk, an I/O error, a closed descriptor) and the
/// command would exit 0 with its output cut short; here the first failure
/// is kept, everything after it is discarded, and `flush` (which
/// `ExitStatus.reporting` calls before a command ends) throws it, so the
/// command reports it on stderr and exits 74. A closed pipe (EPIPE: the
/// reader is gone, as with `| head`) ends the process quietly by SIGPIPE,
/// as it would any Unix filter.
package final class OutputChannel: @unchecked Sendable {
    /// Standard output. The executable writes from one thread.
    package static let standard = OutputChannel(descriptor: STDOUT_FILENO)

    private let descriptor: Int32
    private var buffer: [UInt8] = []
    /// errno of the first failed write.
    private(set) var failure: Int32?
    /// Set when JSON lines go to a terminal (`swipe repl --json` there):
    /// bidi controls inside their strings are written as `\u` escapes.
    package var escapesJSONControls = false
    package static let capacity = 65_536

    package init(descriptor: Int32) {
        self.descriptor = descriptor
        buffer.reserveCapacity(Self.capacity)
    }

    package func append(_ string: String) {
        guard failure == nil else { return }
        buffer.append(contentsOf: (escapesJSONControls ? TerminalText.escapingControlsInJSON(string) : string).utf8)
        if buffer.count >= Self.capacity { _ = writeBuffer() }
    }

    package func flush() throws {
        _ = writeBuffer()
        try throwIfFailed()
    }

    package func throwIfFailed() throws {
        if let failure { throw OutputFailure(code: failure) }
    }

    /// Writes the whole buffer, retrying short writes and EINTR.
    private func writeBuffer() -> Bool {
        guard failure == nil else { return false }
        defer { buffer.removeAll(keepingCapacity: true) }
        var written = 0
        while written < buffer.count {
            let count = buffer.withUnsafeBytes { bytes in
                Foundation.write(descriptor, bytes.baseAddress! + written, bytes.count - written)
            }
            if count < 0 {
                if errno == EINTR { continue }
                fail(errno)
                return false
            }
            written += count
        }
        return true
    }

    private func fail(_ code: Int32) {
        if code == EPIPE {
            // The reader is gone: end as a filter does, without a word.
            signal(SIGPIPE, SIG_DFL)
            raise(SIGPIPE)
        }
        failure = code
    }
}

/// A write to standard output that failed (exit 74).
package struct OutputFailure: Error, CustomStringConvertible {
    package var code: Int32

    package init(code: Int32) { self.code = code }

    package var description: String {
        "cannot write to standard output: \(String(cString: strerror(code))); the output is incomplete"
    }
}
