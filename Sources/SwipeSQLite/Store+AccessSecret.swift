import SwipeCSV
import SwipeStore
extension Store {
    /// The random key that signs this database's sign-in links (`swipe link`,
    /// `swipe serve`): 32 bytes as 64 hex digits in `settings`. Created on
    /// first use when `create` is true; a token signed with another
    /// database's secret never verifies here.
    ///
    /// Two processes creating it at once agree: the first insert wins and
    /// both read back the stored value.
    public func accessSecret(create: Bool) throws -> String? {
        if let stored = try storedAccessSecret() { return stored }
        guard create else { return nil }
        var generator = SystemRandomNumberGenerator()
        let hex = (0..<32).map { _ in
            let byte = UInt8.random(in: .min ... .max, using: &generator)
            return String(byte, radix: 16).leftPadded(to: 2)
        }.joined()
        try connection.statement("""
            INSERT INTO settings (name, value) VALUES ('access_secret', ?1)
            ON CONFLICT (name) DO NOTHING
            """).bind(.text(hex)).run()
        return try storedAccessSecret()
    }

    private func storedAccessSecret() throws -> String? {
        try connection.statement("SELECT value FROM settings WHERE name = 'access_secret'").bind().first { $0.text(0) }
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
