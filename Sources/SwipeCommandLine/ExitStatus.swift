import ArgumentParser
import SwipeCSV
import SwipePostgres
import SwipeSQLite
import SwipeSession
import SwipeStore

/// An error of one program (`swipe`, `swipe-serve`) that knows its own
/// exit code; the libraries' errors are mapped in `ExitStatus.code(for:)`.
package protocol ExitCoded: Error {
    var exitStatus: Int32 { get }
}

/// Maps failures to sysexits codes (README, "Exit codes") and reports them on stderr.
package enum ExitStatus {
    package static let usage: Int32 = 64
    package static let dataError: Int32 = 65
    package static let noInput: Int32 = 66
    /// A part of swipe is not installed (`swipe serve` without `swipe-serve`).
    package static let unavailable: Int32 = 69
    package static let cannotCreate: Int32 = 73
    package static let ioError: Int32 = 74
    package static let interrupted: Int32 = 130

    package static func code(for error: any Error) -> Int32 {
        switch error {
        case let error as any ExitCoded: error.exitStatus
        case is ImportFailure: dataError
        case CSVError.notFound, CSVError.unreadable, DatabaseOpenError.missing: noInput
        case is CSVError: dataError
        case DatabaseOpenError.cannotCreate, is AtomicFile.Failure: cannotCreate
        case is ViewerError, StoreError.invalidValue, StoreError.selfAction: usage
        case is CommandError, is ProfileValueIssue: usage
        case is ImportInterrupted: interrupted
        case is OutputFailure: ioError
        case DatabaseOpenError.notSwipeDatabase, DatabaseOpenError.permissionDenied, StoreError.notStored: ioError
        case let error as SQLiteError where error.isIOError: ioError
        // The server could not be reached, refused us, or the connection broke.
        case let error as PostgresError where error.kind != .server && error.kind != .client: ioError
        default: 1
        }
    }

    /// Runs `body`, then writes out what it printed (a write that failed
    /// is an error too: `OutputFailure`, exit 74); a failure is printed as
    /// `swipe: …` (control characters stripped, line breaks kept) and
    /// becomes the matching exit code. ArgumentParser's own errors pass
    /// through untouched.
    package static func reporting(_ body: () throws -> Void) throws {
        do {
            try body()
            try StandardOutput().flush()
        } catch let error as ValidationError {
            throw error
        } catch let error as ExitCode {
            throw error
        } catch {
            // What was printed before the failure goes out first, in order.
            try? StandardOutput().flush()
            var stderr = StandardError()
            stderr.write("swipe: " + TerminalText.sanitized(message(for: error), keepNewlines: true) + "\n")
            throw ExitCode(code(for: error))
        }
    }
}
