import SwipeCore
import SwipeStore

/// Discovery's questions other than the feed, on PostgreSQL.
public enum PostgresDiscovery {
    /// Which of `candidates` (external ids) the viewer may be shown now
    /// (README "Discovery"), exactly as the feed would judge them: a card
    /// already in the deck that no longer qualifies after a change of
    /// preferences or a block leaves it. Ids that are no profile are left out.
    ///
    /// - Throws: `StoreError.unknownProfile` when the viewer is no profile.
    public static func eligible(connection: PGConnection, viewer: String, among candidates: [String]) throws -> Set<
        String
    > {
        guard let me = try PostgresDiscoveryViewer.read(connection, id: viewer) else {
            throw StoreError.unknownProfile(viewer)
        }
        // No profile's id holds a NUL (PostgreSQL text cannot), and json would refuse one.
        let ids = candidates.filter { !$0.utf8.contains(0) }
        guard !me.seesNobody, !ids.isEmpty else { return [] }
        var result: Set<String> = []
        let arguments = me.arguments(.text(JSONText.array(ids)))
        for row in try connection.statement(PostgresDiscoverySQL.among).query(arguments) {
            let candidate = try PostgresProfileRow.profile(row)
            if me.accepts(candidate) { result.insert(candidate.id) }
        }
        return result
    }
}
