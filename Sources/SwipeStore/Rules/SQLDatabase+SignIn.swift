import Foundation

/// Revoking sign-in links (`swipe link --revoke`). A link's token carries no
/// issue time, so revocation counts instead: each viewer has a sign-in
/// generation in `settings` (`signin.generation.VIEWER`, 0 when absent), and
/// a token is signed over the generation current when it was made; raising
/// it voids every earlier token of that viewer. Revoking everyone replaces
/// the access secret, which voids every token there is.
extension SQLDatabase {
    public func signInGeneration(viewer: String) throws -> Int {
        try read {
            try executor.first("SELECT value FROM settings WHERE name = $1", [.text("signin.generation." + viewer)]) {
                Int(try $0.text("value")) ?? 0
            } ?? 0
        }
    }

    public func revokeSignIns(viewer: String?) throws {
        try write {
            if let viewer {
                try raiseSignInGeneration(viewer: viewer)
            } else {
                var generator = SystemRandomNumberGenerator()
                let hex = (0..<32).map { _ -> String in
                    let byte = UInt8.random(in: .min ... .max, using: &generator)
                    return (byte < 16 ? "0" : "") + String(byte, radix: 16)
                }.joined()
                try executor.run(
                    "INSERT INTO settings (name, value) VALUES ('access_secret', $1) "
                        + "ON CONFLICT (name) DO UPDATE SET value = excluded.value", [.text(hex)])
            }
        }
    }

    /// Voids every sign-in link of `viewer` made so far, inside a write
    /// already open (a revocation, or a suspension).
    package func raiseSignInGeneration(viewer: String) throws {
        let name = "signin.generation." + viewer
        let current =
            try executor.first("SELECT value FROM settings WHERE name = $1", [.text(name)]) {
                Int(try $0.text("value")) ?? 0
            } ?? 0
        try executor.run(
            "INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
            [.text(name), .text(String(current + 1))])
    }
}
