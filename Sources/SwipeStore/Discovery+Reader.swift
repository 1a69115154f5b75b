import Foundation
import SwipeCore

/// What `why` and the genders check read from a store besides the
/// `SwipeDatabase` protocol: the ranking's row of a profile, and the genders
/// present. Both backends conform (Store+Ranking, PostgresStore+Ranking); a
/// store that does not simply has no such reasons.
public protocol DiscoveryReader: AnyObject {
    /// The ranking's row of profile `id` (zero and never acted without one), nil when no such profile.
    func rankStats(id: String) throws -> Discovery.RankStats?
    /// Every gender present, as compared (`Discovery.genderKey`), with how many profiles have it.
    func genderCounts() throws -> [(gender: String, count: Int)]
    /// Every gender some profile's `seeking` names (as stored: compared form).
    func soughtGenders() throws -> Set<String>
}

extension Discovery {
    /// The genders of `seeking` that no profile has, with the genders present
    /// and their counts, in words: nil when every one is present (or `seeking`
    /// is empty: everyone). E.g. `nobody has gender "f"; the genders here:
    /// female 120, male 118, non-binary 12`.
    public static func unknownGenders(_ seeking: [String], present: [(gender: String, count: Int)]) -> String? {
        let known = Set(present.map(\.gender))
        let missing = seeking.map { genderKey($0) }.filter { !known.contains($0) }
        guard !missing.isEmpty else { return nil }
        let names = missing.map { "\"\($0)\"" }.joined(separator: ", ")
        let listed =
            present.isEmpty
            ? "no profile has a gender"
            : "the genders here: " + present.map { "\($0.gender) \($0.count)" }.joined(separator: ", ")
        return "nobody has gender \(names); \(listed)"
    }
}

extension SwipeDatabase {
    /// Why `profile` is (or would be) in `viewer`'s feed, in words (README
    /// "Ranking", `Ranking.reasons`): "likes you" only when `likes` lists
    /// them, then only the signals `Ranking.Model.standard` uses that can be
    /// told (none, since the ablation of issue 38). Nothing else about
    /// anyone's decisions.
    public func reasons(viewer: String, about id: String, now: Date = Date()) throws -> [String] {
        let me = try viewerProfile(viewer)
        guard let them = try profile(id: id) else { throw StoreError.unknownProfile(id) }
        let liker = try likes(viewer: viewer).first { $0.profile == id }?.decision
        let stats = try (self as? DiscoveryReader)?.rankStats(id: id) ?? Discovery.RankStats()
        return Ranking.reasons(viewer: me, candidate: them, stats: stats, liker: liker, now: now)
    }

    /// After an import: the genders some profile seeks that no profile has, in
    /// words (nil: none). From the import's own tally when it filled an empty
    /// table (`ImportSummary.genders`), else from the table.
    public func unknownSoughtGenders(after summary: ImportSummary? = nil) throws -> String? {
        guard let reader = self as? DiscoveryReader else { return nil }
        if let seen = summary?.genders { return Discovery.unknownGenders(seen.sought.sorted(), present: seen.present) }
        return Discovery.unknownGenders(try reader.soughtGenders().sorted(), present: try reader.genderCounts())
    }

    /// `Discovery.unknownGenders` for this database, when it can count genders.
    public func unknownGenders(_ seeking: [String]) throws -> String? {
        guard !seeking.isEmpty, let reader = self as? DiscoveryReader else { return nil }
        return Discovery.unknownGenders(seeking, present: try reader.genderCounts())
    }
}
