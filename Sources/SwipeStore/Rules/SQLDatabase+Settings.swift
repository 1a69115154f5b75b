import Foundation

/// Settings: the last viewer, the rules and the daily quotas, the access secret.
extension SQLDatabase {
    /// The viewer last used with this database, remembered in it so that a
    /// later `swipe history` or REPL session can default to them.
    public func lastViewer() throws -> String? {
        try read { try setting("last_viewer") }
    }

    /// Remembers `viewer` as the last one used (a REPL session does; nothing else).
    public func setLastViewer(_ viewer: String) throws {
        if try lastViewer() == viewer { return }
        try write {
            try executor.run(Self.setSettingSQL, [.text("last_viewer"), .text(viewer)])
        }
    }

    /// The rules in force.
    public func rules() throws -> Rules {
        try read { try readRules() }
    }

    /// `rules` inside a transaction already running.
    func readRules() throws -> Rules {
        Rules(
            settings: try executor.all("SELECT name, value FROM settings WHERE name LIKE 'rule.%'", []) {
                (name: try $0.text("name"), value: try $0.text("value"))
            })
    }

    /// Sets rule `name` to `value`: a count from 0 to 1000000 or `off` for the
    /// daily limits, any|last|passes|off for rewind. Returns the rules now.
    ///
    /// - Throws: `StoreError.invalidValue` (nothing changed).
    @discardableResult
    public func setRule(_ name: String, _ value: String) throws -> Rules {
        let setting = try Rules.setting(name, value)
        try write {
            if let stored = setting.value {
                try executor.run(Self.setSettingSQL, [.text(setting.name), .text(stored)])
            } else {
                try executor.run("DELETE FROM settings WHERE name = $1", [.text(setting.name)])
            }
        }
        return try rules()
    }

    /// The random key that signs this database's sign-in links (`swipe link`,
    /// `swipe serve`): 32 bytes as 64 hex digits in `settings`. Created on
    /// first use when `create` is true; a token signed with another
    /// database's secret never verifies here.
    ///
    /// Two processes creating it at once agree: the first insert wins and
    /// both read back the stored value.
    public func accessSecret(create: Bool) throws -> String? {
        if let stored = try read({ try setting("access_secret") }) { return stored }
        guard create else { return nil }
        var generator = SystemRandomNumberGenerator()
        let hex = (0..<32).map { _ -> String in
            let byte = UInt8.random(in: .min ... .max, using: &generator)
            return (byte < 16 ? "0" : "") + String(byte, radix: 16)
        }.joined()
        try write {
            try executor.run(
                "INSERT INTO settings (name, value) VALUES ('access_secret', $1) ON CONFLICT (name) DO NOTHING",
                [.text(hex)])
        }
        return try read { try setting("access_secret") }
    }

    private func setting(_ name: String) throws -> String? {
        try executor.first("SELECT value FROM settings WHERE name = $1", [.text(name)]) { try $0.text("value") }
    }

    /// Sets a setting, inserting it or replacing its value.
    private static var setSettingSQL: String {
        "INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = excluded.value"
    }
}
