import Foundation
import SwipeCore
import SwipeTestSupport
import Testing

@testable import SwipeCSV
@testable import SwipeStore

/// A person's own data (Documentation/PersonalData.md) on both backends:
/// `me set` checked by the importer's rules, export covering every place
/// the live schema can hold a person, erase leaving no row that names them.
@Suite struct PersonalDataTests {
    let stores = TestStores()
    static let t0 = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18T11:06:40.000Z

    /// v matched with a and b (b wrote to v), v blocked c, d reported v,
    /// v reported e, f liked v, v hated g.
    func world(_ backend: TestBackend) throws -> any SwipeDatabase {
        let store = try stores.store(backend, profiles: ["v", "a", "b", "c", "d", "e", "f", "g"])
        for (viewer, profile, decision) in [
            ("v", "a", Decision.like), ("a", "v", .like), ("v", "b", .superlike), ("b", "v", .like),
            ("f", "v", .like), ("v", "g", .hate), ("a", "b", .like), ("b", "a", .like),
        ] {
            _ = try store.record(viewer: viewer, profile: profile, decision: decision, via: .button, at: Self.t0)
        }
        _ = try store.send(MessageSend(viewer: "b", profile: "v", text: "hi v", clientID: "m1", at: Self.t0))
        _ = try store.send(MessageSend(viewer: "v", profile: "b", text: "hi b", clientID: "m2", at: Self.t0))
        _ = try store.send(MessageSend(viewer: "a", profile: "b", text: "not about v", clientID: "m3", at: Self.t0))
        _ = try store.block(viewer: "v", profile: "c", at: Self.t0)
        _ = try store.report(viewer: "d", profile: "v", reason: "spam links", at: Self.t0)
        _ = try store.report(viewer: "v", profile: "e", reason: "rude", at: Self.t0)
        try store.setLastViewer("v")
        try store.revokeSignIns(viewer: "v")
        return store
    }

    // MARK: me set

    @Test(arguments: TestBackend.all) func editsAreStoredAndCountAsActivity(_ backend: TestBackend) throws {
        let store = try stores.store(backend, profiles: ["v"])
        try store.editProfile(viewer: "v", .city("Lyon"), at: Self.t0)
        try store.editProfile(viewer: "v", .interests(["climbing", "chess"]), at: Self.t0)
        try store.editProfile(viewer: "v", .bio("line one\nline  two"), at: Self.t0)
        let profile = try store.editProfile(viewer: "v", .age(44), at: Self.t0.addingTimeInterval(1))
        #expect(profile.city == "Lyon" && profile.age == 44 && profile.interests == ["climbing", "chess"])
        #expect(try store.profile(id: "v") == profile)
        #expect(try store.profile(id: "v")?.bio == "line one\nline  two")
        let stats = try store.exportPersonalData(viewer: "v", at: nil).section("rank_stats")
        #expect(stats.first?["last_active_at"] == .text("2026-11-18T11:06:41.000Z"))
        try store.editProfile(viewer: "v", .gender(nil), at: Self.t0)
        #expect(
            try store.exportPersonalData(viewer: "v", at: nil).section("rank_stats").first?["last_active_at"]
                == .text("2026-11-18T11:06:41.000Z"), "an older act does not move it back")
    }

    /// `me set place|seeking|ages|km` is activity; `prefs` leaves the ranking as it was.
    @Test(arguments: TestBackend.all) func preferencesSetThroughMeCountAsActivityAndPrefsDoNot(_ backend: TestBackend)
        throws
    {
        let store = try stores.store(backend, profiles: ["v", "w"])
        _ = try store.setPreferences(viewer: "w", PreferencesChange(ages: 20...40))
        #expect(try store.exportPersonalData(viewer: "w", at: nil).section("rank_stats").isEmpty)
        _ = try store.editPreferences(viewer: "v", PreferencesChange(ages: 20...40), at: Self.t0)
        #expect(
            try store.exportPersonalData(viewer: "v", at: nil).section("rank_stats").first?["last_active_at"]
                == .text("2026-11-18T11:06:40.000Z"))
        #expect(try store.profile(id: "v")?.preferences.ageMin == 20)
    }

    @Test(arguments: TestBackend.all) func aChangedAgeIsSeenByTheNextFeed(_ backend: TestBackend) throws {
        let store = try stores.store(backend, profiles: ["v", "w"])
        _ = try store.setPreferences(viewer: "w", PreferencesChange(ages: 25...35))
        #expect(try store.eligible(viewer: "w", among: ["v"]) == ["v"])
        try store.editProfile(viewer: "v", .age(40), at: nil)
        #expect(try store.eligible(viewer: "w", among: ["v"]).isEmpty)
        #expect(try store.eligible(viewer: "v", among: ["w"]).isEmpty, "both ways")
    }

    /// The same value gets the same words from `me set` and from the importer.
    @Test(arguments: TestBackend.all) func refusalsUseTheImportersWords(_ backend: TestBackend) throws {
        let store = try stores.store(backend, profiles: ["v"])
        let cases: [(column: String, value: String, check: () throws -> Void)] = [
            ("age", "17", { _ = try ProfileCheck.age("17") }),
            ("age", "thirty", { _ = try ProfileCheck.age("thirty") }),
            ("name", "  ", { _ = try ProfileCheck.name("  ") }),
        ]
        for (column, value, check) in cases {
            var said: ProfileValueIssue?
            do { try check() } catch let issue as ProfileValueIssue { said = issue }
            let expected = column == "age" ? "age must be a whole number from 18 to 120" : "name is required"
            #expect(said?.message == expected)
            let csv = stores.folder.file(
                "\(column).csv", column == "age" ? "id,name,age\nx,X,\(value)\n" : "id,name,age\nx,\(value),30\n")
            do {
                _ = try store.importProfiles(path: csv, options: ImportOptions())
                Issue.record("the import took \(column) \(value)")
            } catch let failure as ImportFailure {
                #expect(failure.issues.first?.message == expected, "\(failure.issues)")
            }
        }
        #expect(throws: ProfileValueIssue.self) { try store.editProfile(viewer: "v", .age(12), at: nil) }
        #expect(try store.profile(id: "v")?.age == 30, "nothing written")
    }

    // MARK: export

    @Test(arguments: TestBackend.all) func exportHoldsWhatThePersonMadeAndNothingOfOthers(_ backend: TestBackend) throws
    {
        let store = try world(backend)
        let export = try store.exportPersonalData(viewer: "v", at: Self.t0)
        #expect(export.section("profile").first?["id"] == .text("v"))
        #expect(
            export.section("decisions").map { $0["profile"] } == [.text("a"), .text("b"), .text("g")],
            "v's own decisions only, not f's like of v")
        #expect(Set(export.section("matches").map { $0["profile"] }) == [.text("a"), .text("b")])
        let messages = export.section("messages")
        #expect(messages.map { $0["body"] } == [.text("hi v"), .text("hi b")], "not a's message to b")
        #expect(messages.map { $0["direction"] } == [.text("received"), .text("sent")])
        #expect(messages.map { $0["client_id"] } == [.null, .text("m2")], "only v's own client ids")
        #expect(export.section("blocks").map { $0["profile"] } == [.text("c"), .text("e")], "a report blocks too")
        #expect(
            export.section("reports").map { $0["profile"] } == [.text("e")], "reports v made, not d's report of v")
        #expect(export.section("rank_stats").first?["given"] == .int(3))
        #expect(
            Set(export.section("settings").map { $0["name"] }) == [.text("last_viewer"), .text("signin.generation.v")])
    }

    /// Every column of the live schema that references `profiles(key)` is
    /// in `PersonalData.coverage` (exported or withheld with a reason), and
    /// every table is known: a new table holding a person fails here.
    @Test(arguments: TestBackend.all) func exportCoversEveryPlaceTheSchemaHoldsAPerson(_ backend: TestBackend) throws {
        let store = try world(backend)
        let live = try LiveSchema(store)
        let covered = Set(PersonalData.coverage.map(\.0))
        for column in try live.personColumns() where !covered.contains(column) {
            let message: String =
                "\(backend): \(column) references profiles(key) but PersonalData.coverage does not list it: "
                + "add it there (export section or withheld reason) and to erase"
            Issue.record(Comment(rawValue: message))
        }
        let known = Set(PersonalData.coverage.map(\.0.table)).union(PersonalData.tablesNamingNobody)
        for table in try live.tables() where !known.contains(table) {
            let message: String =
                "\(backend): table \(table) is in neither PersonalData.coverage nor PersonalData.tablesNamingNobody: "
                + "say whether it names a person"
            Issue.record(Comment(rawValue: message))
        }
        let sections = Set(try store.exportPersonalData(viewer: "v", at: nil).sections.map(\.name))
        for case (let column, .section(let name)) in PersonalData.coverage where !sections.contains(name) {
            Issue.record("\(column) is covered by section \(name), which the export does not write")
        }
    }

    // MARK: erase

    @Test(arguments: TestBackend.all) func eraseLeavesNoRowNamingThePerson(_ backend: TestBackend) throws {
        let store = try world(backend)
        let live = try LiveSchema(store)
        let key = try #require(try live.key(of: "v"))
        #expect(try live.rowsNaming(key: key, id: "v") > 0, "the walk finds v before")
        let before = try live.rowsNaming(key: try #require(try live.key(of: "a")), id: "a")
        let erasure = try store.erase(viewer: "v", at: Self.t0)
        #expect(erasure.unmatched == ["a", "b"])
        // Only the evidence of v's two reports (one made, one about v) names
        // v now: it outlives the erase for evidence-days (issue 36).
        let left = try live.describeRowsNaming(key: key, id: "v")
        #expect(left == ["settings": 2], "rows still naming v: \(left)")
        #expect(try store.profile(id: "v") == nil)
        // Others keep what is theirs: a's like of b, a's message to b, their match.
        let aKey = try #require(try live.key(of: "a"))
        #expect(
            try live.rowsNaming(key: aKey, id: "a") == before - 3, "a loses only its decisions with v and their match")
        #expect(try store.messages(MessageQuery(viewer: "a", profile: "b", last: nil)).map(\.text) == ["not about v"])
        // The report about v keeps its reason under a tombstone id.
        let tombstone = try #require(erasure.tombstone)
        #expect(tombstone.hasPrefix("erased-") && !tombstone.contains("v"))
        #expect(
            try store.reports().map { [$0.reporter, $0.reported, $0.reason] }
                == [["d", tombstone, "spam links"], ["v", "e", "rude"]],
            "d's report of v stays, tombstoned; v's report of e lives on in its evidence")
        // Others' counters no longer count v's decisions, nor theirs about v.
        for id in ["a", "b", "f", "g"] { try live.expectRankStatsMatchTheLedger(id) }
    }

    @Test(arguments: TestBackend.all) func erasingAReporterRemovesTheirTombstonedReports(_ backend: TestBackend) throws
    {
        let store = try world(backend)
        // Evidence kept no day past the report, so nothing but the rule keeps it.
        try store.setRule("evidence-days", "0")
        let later = Self.t0.addingTimeInterval(1)
        _ = try store.erase(viewer: "v", at: later)
        #expect(try store.reports().count == 1)
        _ = try store.erase(viewer: "d", at: later)
        #expect(try store.reports().isEmpty, "d's report of v was d's")
        let live = try LiveSchema(store)
        #expect(try live.settingsMentioning("d") == 0)
    }

    @Test(arguments: TestBackend.all) func eraseOfNobodyChangesNothing(_ backend: TestBackend) throws {
        let store = try world(backend)
        #expect(throws: StoreError.unknownProfile("nobody")) { try store.erase(viewer: "nobody", at: nil) }
        #expect(try store.profile(id: "v") != nil)
    }
}

extension PersonalExport {
    /// A section's rows as dictionaries, for tests.
    func section(_ name: String) -> [[String: Value]] {
        (sections.first { $0.name == name }?.rows ?? []).map { Dictionary(uniqueKeysWithValues: $0) }
    }
}

/// Partial re-import (Documentation/PersonalData.md): `id` and any columns
/// for ids that exist; name and age only for new ids; unknown columns
/// refused by name, or skipped with `ignoreUnknown`.
@Suite struct PartialImportTests {
    let stores = TestStores()

    func store(_ backend: TestBackend) throws -> any SwipeDatabase {
        let store = try stores.open(backend)
        let first = stores.folder.file("first.csv", "id,name,age,city,bio\na,Ann,30,Lisboa,hello\nb,Bo,40,Porto,\n")
        _ = try store.importProfiles(path: first, options: ImportOptions())
        return store
    }

    @Test(arguments: TestBackend.all) func aFileOfIdAndOneColumnUpdatesThatColumnOnly(_ backend: TestBackend) throws {
        let store = try store(backend)
        let file = stores.folder.file("city.csv", "id,city\nb,Braga\na,Lisboa\n")
        let summary = try store.importProfiles(path: file, options: ImportOptions())
        #expect((summary.inserted, summary.updated, summary.unchanged) == (0, 1, 1))
        let b = try #require(try store.profile(id: "b"))
        #expect(b.name == "Bo" && b.age == 40 && b.city == "Braga", "name and age kept")
        #expect(try store.profile(id: "a")?.bio == "hello")
        let ages = stores.folder.file("age.csv", "id,age\na,31\n")
        _ = try store.importProfiles(path: ages, options: ImportOptions())
        #expect(try store.profile(id: "a").map { "\($0.name) \($0.age)" } == "Ann 31")
    }

    @Test(arguments: TestBackend.all) func aNewIdWithoutNameOrAgeIsRefusedByLine(_ backend: TestBackend) throws {
        let store = try store(backend)
        let file = stores.folder.file("new.csv", "id,name,city\na,Anna,X\nc,Cy,Y\nb,Bob,Z\nd,Di,W\n")
        do {
            _ = try store.importProfiles(path: file, options: ImportOptions())
            Issue.record("a new id without age was imported")
        } catch let failure as ImportFailure {
            #expect(failure.issues.map(\.line) == [3, 5])
            #expect(failure.issues.first?.column == "age" && failure.issues.first?.value == "c")
            #expect(
                failure.issues.first?.message
                    == "c is a new id: age is required for a new profile, and the file has no age column")
        }
        #expect(try store.profile(id: "a")?.name == "Ann", "nothing half-written")
        #expect(try store.profile(id: "c") == nil)
        // With --skip-invalid the known ids are updated and the new ones left out.
        let summary = try store.importProfiles(path: file, options: ImportOptions(skipInvalid: true))
        #expect(summary.rejected.map(\.line) == [3, 5] && summary.updated == 2)
        #expect(try store.profile(id: "c") == nil && store.profile(id: "d") == nil)
        #expect(try store.profile(id: "b")?.name == "Bob")
    }

    @Test(arguments: TestBackend.all) func unknownColumnsAreRefusedByNameOrSkipped(_ backend: TestBackend) throws {
        let store = try store(backend)
        let file = stores.folder.file("email.csv", "id,city,Email\na,Faro,a@example.com\n")
        do {
            _ = try store.importProfiles(path: file, options: ImportOptions())
            Issue.record("an unknown column was accepted")
        } catch let failure as ImportFailure {
            #expect(failure.issues.first?.column == "email")
            #expect(failure.issues.first?.message.contains("--ignore-unknown") == true)
        }
        var options = ImportOptions()
        options.ignoreUnknown = true
        let summary = try store.importProfiles(path: file, options: options)
        #expect(summary.ignoredColumns == ["Email"] && summary.updated == 1)
        #expect(try store.profile(id: "a")?.city == "Faro")
    }
}
