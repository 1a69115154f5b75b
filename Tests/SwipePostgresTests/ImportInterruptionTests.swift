import Foundation
import SwipePostgres
import SwipeStore
import Testing

/// An import into PostgreSQL interrupted in any way leaves nothing behind
/// (README "PostgreSQL"): Ctrl-C (`shouldStop`), the server ending the
/// session mid-COPY, on a first import (schema and all) and on a later one.
@Suite(.needsPostgres) struct ImportInterruptionTests {
    let backends: ImportBackends
    init() throws { backends = try ImportBackends() }

    static let rows = 20_000

    func bigFile(_ name: String, prefix: String = "p") -> String {
        backends.folder.file(
            name,
            "id,name,age,bio\n"
                + (1...Self.rows).map { "\(prefix)\($0),Name \($0),\(18 + $0 % 90),\"bio, \($0)\"\n" }.joined())
    }

    @Test(arguments: [false, true])
    func ctrlCRollsBackEverything(afterAFirstImport: Bool) throws {
        if afterAFirstImport {
            let first = backends.folder.file("first.csv", "id,name,age\nkeep,Keep,30\n")
            #expect(
                backends.importProfilesIntoPostgres(first)
                    == .imported(inserted: 1, updated: 0, unchanged: 0, rejected: []))
        }
        var options = ImportOptions()
        var asked = 0
        options.shouldStop = {
            asked += 1
            return asked > Self.rows / 2
        }
        let path = bigFile("big.csv")
        let answer = backends.importProfilesIntoPostgres(path, options: options)
        #expect(answer == .failed("interrupted: nothing imported from \(path), the database is unchanged"))
        #expect(asked == Self.rows / 2 + 1)
        #expect(try backends.postgresCount("profiles") == (afterAFirstImport ? 1 : nil))
        // The connection is usable afterwards: the next import works.
        #expect(
            backends.importProfilesIntoPostgres(path)
                == .imported(inserted: Self.rows, updated: 0, unchanged: 0, rejected: []))
    }

    /// Ctrl-C after the last row, while the server writes what the COPY
    /// brought (the rows' loop is over): still all or nothing.
    @Test(arguments: [1, 2, 3, 4])
    func ctrlCAfterTheLastRowStillRollsBack(laterCheck: Int) throws {
        let first = backends.folder.file("first.csv", "id,name,age\nkeep,Keep,30\np1,Old,40\n")
        #expect(
            backends.importProfilesIntoPostgres(first) == .imported(inserted: 2, updated: 0, unchanged: 0, rejected: [])
        )
        var options = ImportOptions()
        var asked = 0
        // One check per row, then the checks between the statements after the COPY.
        options.shouldStop = {
            asked += 1
            return asked == Self.rows + laterCheck
        }
        let path = bigFile("big.csv")
        let answer = backends.importProfilesIntoPostgres(path, options: options)
        #expect(answer == .failed("interrupted: nothing imported from \(path), the database is unchanged"))
        #expect(try backends.pg.scalarInt("SELECT count(*) FROM profiles") == 2)
        #expect(try backends.pg.scalarText("SELECT name FROM profiles WHERE id = 'p1'") == "Old")
    }

    /// Another session ends the importing one's server process while rows
    /// stream in (from the progress callback, so at a known row): the
    /// import fails as a lost connection and nothing is stored.
    @Test(arguments: [false, true])
    func aConnectionKilledMidImportLeavesNothing(afterAFirstImport: Bool) throws {
        if afterAFirstImport {
            let first = backends.folder.file("first.csv", "id,name,age\nkeep,Keep,30\n")
            #expect(
                backends.importProfilesIntoPostgres(first)
                    == .imported(inserted: 1, updated: 0, unchanged: 0, rejected: []))
        }
        let killer = try backends.database.connect()
        let victim = backends.pg.backendPID
        var killedAt: Int?
        var options = ImportOptions()
        options.progressInterval = 1_000
        options.progress = { progress in
            guard killedAt == nil, progress.rows >= Self.rows / 2 else { return }
            killedAt = progress.rows
            let ended = try? killer.query("SELECT pg_terminate_backend($1, 60000)", .integer(Int64(victim)))
            #expect((try? ended?[0].bool(0)) == true, "the backend did not end within 60 s")
        }
        let path = bigFile("big.csv")
        let error = #expect(throws: PostgresError.self) {
            try PostgresImport.profiles(
                connection: backends.pg, path: path, options: options, schema: ImportBackends.schema)
        }
        #expect(error?.kind == .connectionLost, "\(String(describing: error))")
        #expect(killedAt != nil && killedAt! < Self.rows)
        try backends.pg.reconnect()
        #expect(try backends.postgresCount("profiles") == (afterAFirstImport ? 1 : nil))
    }

    @Test func aDecisionsImportStoppedByCtrlCLeavesNothing() throws {
        let people = backends.folder.file("people.csv", "id,name,age\na,A,30\nb,B,31\n")
        _ = backends.importProfilesIntoPostgres(people)
        let path = backends.folder.file(
            "decisions.csv",
            "viewer,profile,decision,decided_at\n"
                + (1...1_000).map { "\($0 % 2 == 0 ? "a" : "b"),\($0 % 2 == 0 ? "b" : "a"),like,2026-11-01\n" }.joined()
        )
        var options = ImportOptions()
        var asked = 0
        options.shouldStop = {
            asked += 1
            return asked > 500
        }
        let answer = ImportBackends.Answer {
            try PostgresImport.decisions(connection: backends.pg, path: path, options: options)
        }
        #expect(answer == .failed("interrupted: nothing imported from \(path), the database is unchanged"))
        #expect(try backends.pg.scalarInt("SELECT count(*) FROM decisions") == 0)
        #expect(try backends.pg.scalarInt("SELECT count(*) FROM matches") == 0)
    }
}
