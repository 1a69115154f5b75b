import ArgumentParser
import Foundation
import SwipeStore

/// `--db PATH` and `--sync normal|full`, shared by every subcommand.
struct DatabaseOptions: ParsableArguments {
    @Option(name: .customLong("db"), help: ArgumentHelp(
        "The database file (default $SWIPE_DB, else $XDG_DATA_HOME/swipe/swipe.sqlite).", valueName: "PATH"))
    var path: String?

    @Option(name: .customLong("sync"), help: ArgumentHelp(
        "normal: every commit survives a crash of swipe; full: also a crash of the machine or a power cut, "
            + "at the cost of an fsync per commit (README, section What is durable when).",
        valueName: "normal|full"))
    var synchronous: Connection.Synchronous = .normal

    /// The path `--db`, the environment and the XDG default resolve to.
    var resolvedPath: String {
        let environment = ProcessInfo.processInfo.environment
        return Self.resolve(option: path, environment: environment, home: environment["HOME"] ?? NSHomeDirectory())
    }

    /// `--db`, else `$SWIPE_DB`, else `$XDG_DATA_HOME/swipe/swipe.sqlite` with
    /// `~/.local/share` when XDG_DATA_HOME is unset or not absolute (the XDG rule).
    static func resolve(option: String?, environment: [String: String], home: String) -> String {
        if let option, !option.isEmpty { return option }
        if let path = environment["SWIPE_DB"], !path.isEmpty { return path }
        var dataHome = environment["XDG_DATA_HOME"] ?? ""
        if !dataHome.hasPrefix("/") { dataHome = home + "/.local/share" }
        return dataHome + "/swipe/swipe.sqlite"
    }

    /// Opens the resolved database, creating it when missing (`swipe import`).
    func openCreating() throws -> Store {
        try Self.naming(resolvedPath) { try Store(path: $0, synchronous: synchronous) }
    }

    /// Opens the resolved database, refusing a missing one without creating
    /// anything (`StoreError.missing`, exit 66): every command but `import`
    /// needs profiles, which only an import brings, so a missing file is a
    /// mistyped `--db` or a first run that has not imported yet.
    func openExisting() throws -> Store {
        try Self.naming(resolvedPath) { try Store(path: $0, synchronous: synchronous, create: false) }
    }

    /// Runs `open(path)`; SQLite's "file is not a database" (which names no
    /// file) becomes `NotADatabase`, which does.
    private static func naming(_ path: String, _ open: (String) throws -> Store) throws -> Store {
        do {
            return try open(path)
        } catch let error as SQLiteError where error.primaryCode == NotADatabase.sqliteNotADB {
            throw NotADatabase(path: path, underlying: error)
        }
    }
}

/// The file at `path` is not an SQLite database (or is damaged past
/// recognition): exit 74, nothing written.
struct NotADatabase: Error, CustomStringConvertible {
    /// SQLITE_NOTADB.
    static let sqliteNotADB: Int32 = 26
    var path: String
    var underlying: SQLiteError

    var description: String {
        "\(path): not a database (SQLite: \(underlying.message)); nothing was changed. "
            + "Is --db (or $SWIPE_DB) pointing at the right file?"
    }
}
