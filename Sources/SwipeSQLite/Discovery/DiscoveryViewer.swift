import SwipeCore
import SwipeStore

/// One viewer's side of discovery (`Discovery.Viewer`), read from the
/// store for one fetch, with the parameters `DiscoverySQL` binds.
typealias DiscoveryViewer = Discovery.Viewer

extension Discovery.Viewer {
    /// ?1…?14 of `DiscoverySQL`, then `extra` as ?15.
    func parameters(_ extra: SQLiteValue) -> [SQLiteValue] {
        let preferences = profile.preferences
        let seeking: SQLiteValue = preferences.seeking.isEmpty ? .null : .text(JSONText.array(preferences.seeking))
        let gender: SQLiteValue = Discovery.genderKey(of: profile).map(SQLiteValue.text) ?? .null
        var values: [SQLiteValue] = [
            .int(key), .int(profile.age), .int(preferences.ageMin), .int(preferences.ageMax), seeking, gender,
            .int(profile.location == nil ? 0 : 1), .int(box == nil ? 0 : 1),
        ]
        values += Discovery.boxBounds(box).map { .real($0) }
        return values + [extra]
    }
}

extension SQLiteStore {
    /// The viewer's side of discovery, read now.
    func discoveryViewer(key: Int) throws -> DiscoveryViewer {
        guard
            let profile = try connection.statement("SELECT \(Self.profileColumns) FROM profiles WHERE key = ?1")
                .bind(.int(key)).first({ try Profile(row: $0) })
        else { throw StoreError.unknownProfile("#\(key)") }
        return DiscoveryViewer(key: key, profile: profile)
    }

    /// Which of `candidates` (external ids) the viewer may be shown now
    /// (README "Discovery"), whether decided or not aside: a card already in
    /// the deck that no longer qualifies after a change of preferences or a
    /// block leaves it.
    public func eligible(viewer: String, among candidates: [String]) throws -> Set<String> {
        let viewer = try discoveryViewer(key: try requireKey(viewer))
        guard !viewer.seesNobody else { return [] }
        var result: Set<String> = []
        for id in candidates {
            guard let key = try profileKey(id: id) else { continue }
            let candidate = try connection.statement(DiscoverySQL.one).bind(viewer.parameters(.int(key)))
                .first { try Profile(row: $0) }
            if let candidate, viewer.accepts(candidate) { result.insert(id) }
        }
        return result
    }
}
