extension SQLDatabase {
    /// The ranking's row of the profile with external id `id` (`why` and the
    /// feed's reasons read it): nil when there is no such profile, all zero
    /// and never when it has not acted or been dealt yet.
    public func rankStats(id: String) throws -> Discovery.RankStats? {
        try read {
            guard let key = try profileKey(id: id) else { return nil }
            return try executor.first(
                Discovery.RankStats.self,
                """
                SELECT given, given_likes, received, received_likes, last_active_at, dealt_since, dealt, dealt_total
                FROM rank_stats WHERE profile = $1
                """, [.int(key)]) ?? Discovery.RankStats()
        }
    }
}
