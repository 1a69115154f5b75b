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

extension SQLDatabase {
    /// How many viewers one statement asks about; a shorter list repeats its
    /// last id, so that every chunk is the same statement (prepared once).
    static var signInChunk: Int { 100 }

    /// The sign-in state of each of `viewers` that is a profile, at `date`
    /// (now when nil): what `signInGeneration`, `isProfile` and `suspension`
    /// say one by one, read in one statement per 100 viewers instead of
    /// three per viewer. A server re-checks every open socket's sign-in
    /// every few seconds; 10,000 sockets are 100 statements, not 30,000.
    public func signInStates(of viewers: [String], at date: Date?) throws -> [String: SignInState] {
        let now = Timestamp.string(from: date ?? Date())
        let ids = Array(Set(viewers.filter { executor.dialect.canHold($0) })).sorted()
        guard !ids.isEmpty else { return [:] }
        let chunk = Self.signInChunk
        let list = (1...chunk).map { "$\($0)" }.joined(separator: ", ")
        let sql = """
            SELECT p.id, g.value AS generation, s.reason, s.banned_at, s.ends_at, s.banned_by
            FROM profiles AS p
            LEFT JOIN settings AS g ON g.name = 'signin.generation.' || p.id
            LEFT JOIN suspensions AS s ON s.profile = p.key AND (s.ends_at IS NULL OR s.ends_at > $\(chunk + 1))
            WHERE p.id IN (\(list))
            """
        return try read {
            var states: [String: SignInState] = [:]
            for start in stride(from: 0, to: ids.count, by: chunk) {
                let part = Array(ids[start..<min(start + chunk, ids.count)])
                let padded = part + Array(repeating: part.last!, count: chunk - part.count)
                let rows = try executor.all(sql, padded.map { .text($0) } + [.text(now)]) { row in
                    let id = try row.text("id")
                    let suspension = try row.optionalText("reason").map { reason in
                        Suspension(
                            profile: id, reason: reason, bannedAt: try row.text("banned_at"),
                            endsAt: try row.optionalText("ends_at"), bannedBy: try row.text("banned_by"))
                    }
                    let generation = try row.optionalText("generation").flatMap { Int($0) } ?? 0
                    return (id, SignInState(generation: generation, suspension: suspension))
                }
                for (id, state) in rows { states[id] = state }
            }
            return states
        }
    }
}
