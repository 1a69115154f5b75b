import Foundation
import SwipePostgres
import SwipeSQLite
import SwipeStore
import Testing

/// `swipe import --decisions` into PostgreSQL checks rows set-wise, where
/// SQLite runs its ledger row by row: the two must refuse the same rows with
/// the same messages, count the same, and store the same decisions and
/// matches.
@Suite(.needsPostgres) struct DecisionImportTests {
    let backends: ImportBackends
    init() throws { backends = try ImportBackends() }

    static let t1 = "2026-11-01T10:00:00.000Z"
    static let t2 = "2026-11-02T10:00:00.000Z"

    /// Profiles a…f on both; c has blocked d.
    func prepare() throws {
        let people = backends.folder.file(
            "people.csv", "id,name,age\n" + "abcdef".map { "\($0),\($0.uppercased()),30\n" }.joined())
        let answers = backends.importProfiles(people)
        #expect(answers.postgres == answers.sqlite)
        try backends.sqlite.block(viewer: "c", profile: "d")
        try backends.pg.run(
            """
            INSERT INTO blocks (blocker, blocked, blocked_at)
            SELECT b.key, d.key, $1 FROM profiles AS b, profiles AS d WHERE b.id = 'c' AND d.id = 'd'
            """, .text(Self.t1))
    }

    /// Every refusal the ledger has, in one file, with one already standing
    /// decision in the database (a likes b at t1).
    static let mixed = """
        viewer,profile,decision,decided_at,via
        zed,b,like,2026-11-01,drag
        a,nobody,like,2026-11-01,
        zed,b,meh,never,
        a,c,meh,2026-11-01,
        a,c,like,yesterday,
        a,c,like,2026-11-01,telepathy
        a,a,like,2026-11-01,
        c,d,like,2026-11-01,
        d,c,hate,2026-11-01,
        a,b,like,\(t1),
        a,b,like,\(t2),
        a,b,hate,\(t1),
        b,a,superlike,\(t2),button
        e,f,nope,\(t1),
        e,f,hate,\(t1),
        e,f,like,\(t1),
        f,e,like,\(t2),
        f,a,like,\(t1),
        a,f,like,\(t2),
         b , c ,LIKE,2026-11-03T01:02:03Z,DRAG
        """

    @Test(arguments: [false, true])
    func everyRefusalIsWordedAsOnSQLite(skipInvalid: Bool) throws {
        try prepare()
        let before = backends.folder.file("before.csv", "viewer,profile,decision,decided_at\na,b,like,\(Self.t1)\n")
        var answers = backends.importDecisions(before)
        #expect(answers.sqlite == .imported(inserted: 1, updated: 0, unchanged: 0, rejected: []))
        #expect(answers.postgres == answers.sqlite)

        let path = backends.folder.file("mixed.csv", Self.mixed)
        answers = backends.importDecisions(path, skipInvalid: skipInvalid)
        #expect(answers.postgres == answers.sqlite)
        let prefix = backends.folder.path + "/mixed.csv"
        // Worked by hand from the ledger's rules, in its order of checks.
        let refusals = [
            "\(prefix):2: column viewer: value \"zed\": no profile has this id",
            "\(prefix):3: column profile: value \"nobody\": no profile has this id",
            "\(prefix):4: column viewer: value \"zed\": no profile has this id",
            "\(prefix):5: column decision: value \"meh\": decision must be like, hate (or nope) or superlike",
            "\(prefix):6: column decided_at: value \"yesterday\": decided_at must be UTC ISO-8601, e.g. 2026-11-20T23:55:01.123Z",
            "\(prefix):7: column via: value \"telepathy\": via must be drag, button, detail or import",
            "\(prefix):8: column profile: value \"a\": a viewer cannot decide about themself",
            "\(prefix):9: column profile: value \"d\": c and d are blocked from each other",
            "\(prefix):10: column profile: value \"c\": d and c are blocked from each other",
            "\(prefix):12: column profile: value \"b\": a already decided like on b at \(Self.t1)",
            "\(prefix):13: column profile: value \"b\": a already decided like on b at \(Self.t1)",
            "\(prefix):17: column profile: value \"f\": e already decided hate on f at \(Self.t1)",
        ]
        if skipInvalid {
            // Inserted: b→a, e→f (nope), f→e, f→a, a→f, b→c; unchanged: a→b at t1, e→f hate again.
            #expect(answers.sqlite == .imported(inserted: 6, updated: 0, unchanged: 2, rejected: refusals))
            let decisions = try backends.texts(ImportBackends.decisionsSQL, columns: 5)
            #expect(decisions.postgres == decisions.sqlite)
            #expect(decisions.postgres.count == 7)
            let matches = try backends.texts(ImportBackends.matchesSQL, columns: 3)
            #expect(matches.postgres == matches.sqlite)
            // a–b (superlike meets like, at the later), a–f; e hated f, so no e–f.
            #expect(matches.postgres == [["a", "b", Self.t2], ["a", "f", Self.t2]])
        } else {
            #expect(
                answers.sqlite == .failed((refusals + ["nothing imported (12 invalid rows)"]).joined(separator: "\n")))
            #expect(try backends.pg.scalarInt("SELECT count(*) FROM decisions") == 1)
            #expect(try backends.pg.scalarInt("SELECT count(*) FROM matches") == 0)
        }
    }

    @Test func theSeedDecisionsMakeTheSameMatches() throws {
        let seed = ImportBackends.root.appendingPathComponent("seed")
        var answers = backends.importProfiles(seed.appendingPathComponent("profiles.csv").path)
        #expect(answers.postgres == answers.sqlite)
        let decisions = seed.appendingPathComponent("decisions.csv").path
        answers = backends.importDecisions(decisions)
        #expect(answers.sqlite == .imported(inserted: 1048, updated: 0, unchanged: 0, rejected: []))
        #expect(answers.postgres == answers.sqlite)
        answers = backends.importDecisions(decisions)
        #expect(answers.postgres == .imported(inserted: 0, updated: 0, unchanged: 1048, rejected: []))
        let stored = try backends.texts(ImportBackends.decisionsSQL, columns: 5)
        #expect(stored.postgres == stored.sqlite)
        let matches = try backends.texts(ImportBackends.matchesSQL, columns: 3)
        #expect(matches.postgres == matches.sqlite)
        #expect(!matches.postgres.isEmpty)
    }

    /// Random files over a few profiles (so pairs repeat, conflict and
    /// match), with random blocks and earlier decisions: whatever the
    /// ledger makes of them row by row, the set-wise import makes too.
    @Test(arguments: 1...12)
    func randomFilesAgreeWithTheRowByRowLedger(seed: Int) throws {
        var random = SeededRandom(seed: UInt64(seed))
        let ids = ["a", "b", "c", "d", "e", "zz"]  // zz is no profile
        let people = backends.folder.file("people.csv", "id,name,age\na,A,30\nb,B,31\nc,C,32\nd,D,33\ne,E,34\n")
        _ = backends.importProfiles(people)
        for _ in 0..<2 {
            let blocker = ids[random.next(5)], blocked = ids[random.next(5)]
            guard blocker != blocked else { continue }
            if (try? backends.sqlite.block(viewer: blocker, profile: blocked)) != nil {
                try backends.pg.run(
                    """
                    INSERT INTO blocks (blocker, blocked, blocked_at)
                    SELECT b.key, d.key, $1 FROM profiles AS b, profiles AS d WHERE b.id = $2 AND d.id = $3
                    """, .text(Self.t1), .text(blocker), .text(blocked))
            }
        }
        let kinds = ["like", "hate", "superlike", "nope", "meh"]
        let times = [
            "2026-11-01", "2026-11-02T00:00:00Z", "2026-11-02T00:00:00.000Z", "2026-11-03T04:05:06.007Z", "soon",
        ]
        func file(_ name: String, rows: Int) -> String {
            backends.folder.file(
                name,
                "viewer,profile,decision,decided_at\n"
                    + (0..<rows).map { _ in
                        [ids[random.next(6)], ids[random.next(6)], kinds[random.next(5)], times[random.next(5)]]
                            .joined(separator: ",") + "\n"
                    }.joined())
        }
        var answers = backends.importDecisions(file("earlier.csv", rows: 8), skipInvalid: true)
        #expect(answers.postgres == answers.sqlite)
        let skip = random.next(2) == 0
        answers = backends.importDecisions(file("random.csv", rows: 40), skipInvalid: skip)
        #expect(answers.postgres == answers.sqlite, "seed \(seed)")
        let stored = try backends.texts(ImportBackends.decisionsSQL, columns: 5)
        #expect(stored.postgres == stored.sqlite, "seed \(seed)")
        let matches = try backends.texts(ImportBackends.matchesSQL, columns: 3)
        #expect(matches.postgres == matches.sqlite, "seed \(seed)")
    }
}

/// SplitMix64: the same numbers for the same seed on every run.
struct SeededRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}
