import SwipeCSV
import SwipeStore
extension Store {
    /// The viewer last used with this database, remembered in it so that a
    /// later `swipe history` or REPL session can default to them.
    public func lastViewer() throws -> String? {
        try connection.statement("SELECT value FROM settings WHERE name = 'last_viewer'").bind().first { $0.text(0) }
    }

    /// Remembers `viewer` as the last one used (a REPL session does; nothing else).
    public func setLastViewer(_ viewer: String) throws {
        if try lastViewer() == viewer { return }
        try connection.statement("""
            INSERT INTO settings (name, value) VALUES ('last_viewer', ?1)
            ON CONFLICT (name) DO UPDATE SET value = excluded.value
            """).bind(.text(viewer)).run()
    }
}

