import Foundation
import SwipePostgres
import SwipeSQLite
import SwipeStore
import SwipeTestSupport
import Testing

/// `swipe import --decisions` into PostgreSQL counts its rows in `rank_stats`
/// in one statement per side (the trigger steps aside while it inserts),
/// where SQLite's triggers count row by row: the counts must come out the
/// same. Row by row, one viewer's thousands of decisions updated one row
/// thousands of times in one transaction: 10k took 3.5 s, 20k 17 s, 40k 54 s.
@Suite(.needsPostgres) struct DecisionImportRankStatsTests {
    let backends: ImportBackends
    init() throws { backends = try ImportBackends() }

    /// Every profile's ranking counts (the activity and impressions aside:
    /// none here), as each backend stores them.
    func counts(_ ids: [String]) throws -> (sqlite: [String], postgres: [String]) {
        let pg = try PostgresStore(uri: backends.database.uri, create: false)
        func row(_ stats: Discovery.RankStats?) -> String {
            let s = stats ?? Discovery.RankStats()
            return "\(s.given)/\(s.givenLikes) \(s.received)/\(s.receivedLikes) \(s.lastActiveAt ?? "-")"
        }
        return (
            try ids.map { "\($0) " + row(try backends.sqlite.rankStats(id: $0)) },
            try ids.map { "\($0) " + row(try pg.rankStats(id: $0)) }
        )
    }

    /// 40 people; a heavy viewer deciding about everyone, the rest a few
    /// random decisions each (hates among them), over decisions recorded
    /// before (one of them undone), which the import adds to.
    @Test func theImportCountsAsTheTriggersDoRowByRow() throws {
        let ids = (0..<40).map { "p\($0)" }
        let people = backends.folder.file(
            "people.csv", "id,name,age\n" + ids.map { "\($0),N,30\n" }.joined())
        #expect(
            backends.importProfiles(people).postgres == .imported(inserted: 40, updated: 0, unchanged: 0, rejected: []))
        let before = backends.folder.file(
            "before.csv",
            """
            viewer,profile,decision,decided_at
            p1,p0,like,2026-11-01T10:00:00.000Z
            p2,p0,hate,2026-11-01T10:00:01.000Z
            p0,p3,superlike,2026-11-01T10:00:02.000Z

            """)
        #expect(
            backends.importDecisions(before).postgres == .imported(inserted: 3, updated: 0, unchanged: 0, rejected: []))
        let pg = try PostgresStore(uri: backends.database.uri, create: false)
        for store in [backends.sqlite as any SwipeDatabase, pg] {
            _ = try store.undo(viewer: "p2", profile: "p0", at: Timestamp.date(from: "2026-11-01T11:00:00.000Z"))
        }
        var random = SplitMix64(seed: 20)
        var lines = ["viewer,profile,decision,decided_at"]
        var decided: Set<[String]> = [["p1", "p0"], ["p0", "p3"]]
        for (n, id) in ids.enumerated() where id != "p5" {
            lines.append(
                "p5,\(id),\(["like", "hate", "superlike"][n % 3]),2026-11-02T10:00:\(String(format: "%02d", n)).000Z")
        }
        for n in 0..<120 {
            let viewer = ids[Int(random.next() % 40)], profile = ids[Int(random.next() % 40)]
            guard viewer != "p5", viewer != profile, decided.insert([viewer, profile]).inserted else { continue }
            let kind = ["like", "hate", "superlike"][Int(random.next() % 3)]
            lines.append(
                "\(viewer),\(profile),\(kind),2026-11-03T10:\(String(format: "%02d", n / 60)):\(String(format: "%02d", n % 60)).000Z"
            )
        }
        let file = backends.folder.file("many.csv", lines.joined(separator: "\n") + "\n")
        let answers = backends.importDecisions(file)
        #expect(answers.postgres == answers.sqlite)
        let (sqlite, postgres) = try counts(ids)
        #expect(postgres == sqlite)
        // Worked by hand: p5 decided 39 people (13 hates), nobody decided p5 but by chance.
        #expect(sqlite[5].hasPrefix("p5 39/26 "), "\(sqlite[5])")
    }

    /// A database whose `rank_stats_keep` predates the bulk count (it counts
    /// every row, whatever the import says) gets today's before the import
    /// inserts, so that nothing is counted twice.
    @Test func anEarlierTriggerIsReplacedBeforeTheImportCounts() throws {
        let people = backends.folder.file("people.csv", "id,name,age\na,A,30\nb,B,30\n")
        _ = backends.importProfiles(people)
        let today = try #require(
            try backends.pg.scalarText("SELECT prosrc FROM pg_proc WHERE oid = to_regproc('rank_stats_keep')"))
        let bulk = try #require(today.range(of: "    -- A bulk import of decisions"))
        let end = try #require(today.range(of: "    END IF;\n", range: bulk.upperBound..<today.endIndex))
        let earlier = today.replacingCharacters(in: bulk.lowerBound..<end.upperBound, with: "")
        #expect(!earlier.contains("rank_stats_in_bulk"))
        try backends.pg.execute(
            "CREATE OR REPLACE FUNCTION rank_stats_keep() RETURNS trigger LANGUAGE plpgsql AS $$" + earlier + "$$")

        let file = backends.folder.file(
            "d.csv",
            "viewer,profile,decision,decided_at\na,b,like,2026-11-01T10:00:00.000Z\nb,a,hate,2026-11-01T10:00:01.000Z\n"
        )
        let answers = backends.importDecisions(file)
        #expect(answers.postgres == answers.sqlite)
        let (sqlite, postgres) = try counts(["a", "b"])
        #expect(sqlite == ["a 1/1 1/0 2026-11-01T10:00:00.000Z", "b 1/0 1/1 2026-11-01T10:00:01.000Z"])
        #expect(postgres == sqlite)
        #expect(
            try backends.pg.scalarText("SELECT prosrc FROM pg_proc WHERE oid = to_regproc('rank_stats_keep')") == today)
    }
}
