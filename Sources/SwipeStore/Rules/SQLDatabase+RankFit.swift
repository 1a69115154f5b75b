import Foundation

/// The ranking's fit (`Ranking.Fit`, README "Ranking"), recomputed in a
/// bounded batch, written once for both backends: the same decisions read
/// in the same order give the same numbers, so both feeds deal alike.
extension SQLDatabase {
    /// Refits the ranking's model from the ledger's latest `limit` standing
    /// decisions (by key, newest first: one backward range of the primary
    /// key) and stores it in one write transaction: `rank_fit` replaced
    /// whole, `rank_fit_mean` stamped. The fit itself runs between the read
    /// and the write, outside any transaction, so writers never wait on it.
    /// No standing decision: the mean is stored NULL (never fitted), and the
    /// feed ranks by the like rates.
    ///
    /// When it runs (Documentation/Discovery.md): at the end of an import of
    /// decisions, by `swipe serve` every `Ranking.refitSeconds`, and when a
    /// feed is opened in the REPL on a stale fit (`rankingFitIsStale`).
    /// - Parameters:
    /// (`SwipeDatabase.refitRanking(ridge:at:)` gives the shipped model's
    /// ridge and bound.)
    /// - Parameters:
    ///   - ridge: The penalty on each appeal and generosity.
    ///   - limit: At most this many decisions are fitted (`Ranking.fitDecisions`).
    ///   - date: When it runs (now when nil).
    /// - Returns: The fit stored.
    @discardableResult
    public func refitRanking(ridge: Double, limit: Int, at date: Date?) throws -> Ranking.Fit {
        var through = 0
        let edges = try read {
            // The ledger's newest key, undone or not: what a stale check compares with.
            through =
                try executor.first("SELECT coalesce(max(key), 0) AS newest FROM decisions", []) {
                    try $0.int("newest")
                } ?? 0
            return try executor.all(
                """
                SELECT viewer, profile, CASE WHEN decision = 'hate' THEN 0 ELSE 1 END AS liked
                FROM decisions WHERE undone_at IS NULL ORDER BY key DESC LIMIT $1
                """, [.int(limit)]
            ) { row in
                Ranking.Edge(
                    viewer: try row.int("viewer"), profile: try row.int("profile"), liked: try row.int("liked") == 1)
            }
        }
        let fit = Ranking.fit(edges, ridge: ridge)
        let now = Timestamp.string(from: date ?? Date())
        try write {
            // The mean's one row first: its row lock queues a concurrent
            // refit (several REPLs opening at once) behind this one, whose
            // rows its DELETE then sees, instead of both inserting the same keys.
            try executor.run(
                "UPDATE rank_fit_mean SET mean = $1, ridge = $2, decisions = $3, through = $4, fitted_at = $5",
                [edges.isEmpty ? .null : .real(fit.mean), .real(ridge), .int(edges.count), .int(through), .text(now)])
            try executor.run("DELETE FROM rank_fit", [])
            var rows = fit.rows[...]
            // Chunks of 256, 128, … 1 rows: at most nine statement texts, each prepared once.
            var size = Self.fitChunk
            while !rows.isEmpty {
                while size > rows.count { size /= 2 }
                let chunk = rows.prefix(size)
                rows = rows.dropFirst(size)
                let values = (0..<size).map { "($\(3 * $0 + 1), $\(3 * $0 + 2), $\(3 * $0 + 3))" }
                try executor.run(
                    "INSERT INTO rank_fit (profile, appeal, generosity) VALUES " + values.joined(separator: ", "),
                    chunk.flatMap { [.int($0.key), .real($0.appeal), .real($0.generosity)] })
            }
        }
        return fit
    }

    /// Whether the stored fit is due again: never fitted while the ledger
    /// holds a decision, or `every` decisions or more made since (by key).
    /// One statement: the fit's row and the ledger's largest key.
    /// - Parameter every: Decisions after the fit that make it stale (`Ranking.refitEvery`).
    public func rankingFitIsStale(every: Int = Ranking.refitEvery) throws -> Bool {
        try read {
            try executor.first(
                """
                SELECT CASE WHEN m.mean IS NULL THEN 1 ELSE 0 END AS never, m.through AS through,
                       (SELECT coalesce(max(d.key), 0) FROM decisions AS d) AS newest
                FROM rank_fit_mean AS m
                """, []
            ) { row in
                let newest = try row.int("newest"), through = try row.int("through"), never = try row.int("never")
                return newest > 0 && (never == 1 || newest - through >= every)
            } ?? false
        }
    }
}

extension SQLDatabase {
    /// Rows per INSERT of a refit's write (3 values each).
    static var fitChunk: Int { 256 }
}

extension Ranking {
    /// Decisions made after the stored fit (by key) that make it stale for
    /// the REPL's refit on opening a feed (`rankingFitIsStale`).
    public static let refitEvery = 1_000
    /// Seconds between `swipe serve`'s refits (a bounded batch each).
    public static let refitSeconds: TimeInterval = 600
}
