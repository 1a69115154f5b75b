import ArgumentParser
import Foundation
import SwipePostgres
import SwipeSQLite
import SwipeStore

/// `--db PATH` and `--sync normal|full`, shared by every subcommand.
package struct DatabaseOptions: ParsableArguments {
    package init() {}

    @Option(
        name: .customLong("db"),
        help: ArgumentHelp(
            "The database: a SQLite file, or a PostgreSQL server as postgres://USER@HOST:PORT/DBNAME "
                + "(passwords from PGPASSWORD or ~/.pgpass) (default $SWIPE_DB, else $XDG_DATA_HOME/swipe/swipe.sqlite).",
            valueName: "PATH|URI"))
    package var path: String?

    @Option(
        name: .customLong("sync"),
        help: ArgumentHelp(
            "normal: every commit survives a crash of swipe; full: also a crash of the machine or a power cut, "
                + "at the cost of an fsync per commit (Documentation/Durability.md). On PostgreSQL "
                + "normal is synchronous_commit=on, full is remote_apply (waits for synchronous standbys).",
            valueName: "normal|full"))
    package var synchronous: Durability = .normal

    /// The path `--db`, the environment and the XDG default resolve to.
    package var resolvedPath: String {
        let environment = ProcessInfo.processInfo.environment
        return Self.resolve(option: path, environment: environment, home: environment["HOME"] ?? NSHomeDirectory())
    }

    /// `--db`, else `$SWIPE_DB`, else `$XDG_DATA_HOME/swipe/swipe.sqlite` with
    /// `~/.local/share` when XDG_DATA_HOME is unset or not absolute (the XDG rule).
    package static func resolve(option: String?, environment: [String: String], home: String) -> String {
        if let option, !option.isEmpty { return option }
        if let path = environment["SWIPE_DB"], !path.isEmpty { return path }
        var dataHome = environment["XDG_DATA_HOME"] ?? ""
        if !dataHome.hasPrefix("/") { dataHome = home + "/.local/share" }
        return dataHome + "/swipe/swipe.sqlite"
    }

    /// The backend `--db` names, chosen here and nowhere else: a
    /// `postgres://` or `postgresql://` URI is a PostgreSQL server (README
    /// "PostgreSQL"), anything else a SQLite file.
    package var driver: any DatabaseDriver {
        let resolved = resolvedPath
        if PostgresURI.isPostgres(resolved) { return PostgresDriver(uri: resolved, durability: synchronous) }
        return SQLiteDriver(path: resolved, durability: synchronous)
    }

    /// Opens the resolved database for `swipe import`, the one command that
    /// creates: a missing or 0-byte file becomes a new database.
    package func openCreating() throws -> any SwipeDatabase { try driver.openCreating() }

    /// Opens the resolved database to write (the REPL), refusing a missing
    /// one without creating anything (`DatabaseOpenError.missing`, exit 66): every
    /// command but `import` needs profiles, which only an import brings, so
    /// a missing file is a mistyped `--db` or a first run that has not
    /// imported yet.
    package func openExisting() throws -> any SwipeDatabase { try driver.openExisting() }

    /// Opens the resolved database read-only (history, matches, profiles,
    /// stats): nothing is written, not even the journal mode.
    package func openReading() throws -> any SwipeDatabase { try driver.openReading() }
}
