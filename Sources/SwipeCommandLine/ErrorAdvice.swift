import SwipeCSV
import SwipePostgres
import SwipeStore

/// The libraries' errors say what is wrong with the values at fault; here
/// they gain what a person types to fix it (options, commands, variables),
/// which only the executable knows.
extension ExitStatus {
    package static func message(for error: any Error) -> String {
        switch error {
        case DatabaseOpenError.missing(let path):
            "\(error) (create one with `swipe import --db \(shellQuoted(path)) profiles.csv`)"
        case DatabaseOpenError.olderSchema:
            "\(error) (a command that writes, `swipe repl` or `swipe import`, upgrades it)"
        case ViewerError.noneChosen:
            "\(error): pass --as PROFILE_ID or set SWIPE_AS (a REPL session remembers its viewer in the database)"
        case ViewerError.notAProfile:
            "\(error) (see `swipe profiles`)"
        case let error as PostgresError where error.kind == .unreachable:
            "\(error) (is the server running there? --db or $SWIPE_DB names it)"
        case let error as PostgresError where error.kind == .connectionLost:
            "\(error) (the next command reconnects)"
        case let failure as ImportFailure where !failure.isWholeFile:
            // Only invalid rows stopped it: skipping them imports the rest. (An
            // empty file or a bad header gets no such hint: nothing could be imported.)
            (failure.issueLines + ["nothing imported (\(failure.count); --skip-invalid imports the valid ones)"])
                .joined(separator: "\n")
        default:
            String(describing: error)
        }
    }

    /// `path` as a shell word: as it is when it holds only safe characters,
    /// else in single quotes, so the suggested command can be pasted.
    package static func shellQuoted(_ path: String) -> String {
        let safe = path.unicodeScalars.allSatisfy { scalar in
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                || "/._-+,:@%=".unicodeScalars.contains(scalar)
        }
        return safe && !path.isEmpty ? path : "'" + path.replacing("'", with: #"'\''"#) + "'"
    }
}
