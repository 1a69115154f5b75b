import Foundation
import SwipeCore
import SwipeTestSupport
import Testing

@testable import SwipeStore

/// Reports keep their evidence (issue 36, defect 5): `swipe erase` of a
/// reported person deleted the reported conversation, and `swipe reports
/// --messages` then failed as a whole ("no profile has id erased-…"). A
/// report now stores the reported profile and the pair's last 50 messages,
/// which outlive either person's erase for `evidence-days` (90 by default).
@Suite struct ReportEvidenceTests {
    let stores = TestStores("swipe-evidence")
    static let start = Date(timeIntervalSince1970: 1_795_000_000)
    static func at(hours: Double) -> Date { start.addingTimeInterval(hours * 3600) }

    /// ana and bo match and write three messages; ana reports bo.
    func reported(_ backend: TestBackend) throws -> any SwipeDatabase {
        let store = try stores.store(backend, profiles: ["ana", "bo", "cy"])
        try store.upsert(Profile(id: "bo", name: "Bo Harasser", age: 30, bio: "nice guy, honest"))
        _ = try store.record(viewer: "ana", profile: "bo", decision: .like, via: .button, at: Self.at(hours: 0))
        _ = try store.record(viewer: "bo", profile: "ana", decision: .like, via: .button, at: Self.at(hours: 0.1))
        for (n, (from, to, text)) in [("bo", "ana", "hey"), ("ana", "bo", "hi"), ("bo", "ana", "you will regret it")]
            .enumerated()
        {
            _ = try store.send(
                MessageSend(viewer: from, profile: to, text: text, clientID: "c\(n)", at: Self.at(hours: 1 + Double(n)))
            )
        }
        try store.report(viewer: "ana", profile: "bo", reason: "threats", at: Self.at(hours: 5))
        return store
    }

    func texts(_ store: any SwipeDatabase) throws -> [[String]] {
        try store.reports().map { try store.transcript(of: $0, limit: Report.transcriptLength).map(\.text) }
    }

    @Test(arguments: TestBackend.all) func theEvidenceOutlivesTheReportedPersonsErase(_ backend: TestBackend) throws {
        let store = try reported(backend)
        _ = try store.erase(viewer: "bo", at: Self.at(hours: 6))
        let reports = try store.reports()
        #expect(reports.count == 1)
        #expect(reports.first?.reason == "threats")
        #expect(try texts(store) == [["hey", "hi", "you will regret it"]])
    }

    @Test(arguments: TestBackend.all) func theEvidenceOutlivesTheReportersEraseAndBoth(_ backend: TestBackend) throws {
        let store = try reported(backend)
        _ = try store.erase(viewer: "ana", at: Self.at(hours: 6))
        #expect(try store.reports().map(\.reporter) == ["ana"], "the report is listed from its evidence")
        #expect(try texts(store) == [["hey", "hi", "you will regret it"]])
        _ = try store.erase(viewer: "bo", at: Self.at(hours: 7))
        #expect(try store.reports().count == 1)
        #expect(try texts(store) == [["hey", "hi", "you will regret it"]])
    }

    @Test(arguments: TestBackend.all) func theEvidenceIsDeletedAfterEvidenceDays(_ backend: TestBackend) throws {
        let store = try stores.store(backend, profiles: ["ana", "bo", "cy", "di"])
        try store.setRule("evidence-days", "1")
        #expect(try store.rules().evidenceDays == 1)
        _ = try store.record(viewer: "ana", profile: "bo", decision: .hate, via: .button)
        try store.report(viewer: "ana", profile: "bo", reason: "fake", at: Self.at(hours: 0))
        _ = try store.erase(viewer: "ana", at: Self.at(hours: 1))
        _ = try store.erase(viewer: "bo", at: Self.at(hours: 2))
        #expect(try store.reports().count == 1, "within its day")
        // A later erase, past the day: the evidence goes, and nothing fails.
        _ = try store.erase(viewer: "cy", at: Self.at(hours: 25))
        #expect(try store.reports().isEmpty)
        #expect(throws: StoreError.self) { try store.setRule("evidence-days", "3651") }
        #expect(try store.setRule("evidence-days", "90").entries.contains { $0 == ("evidence-days", "90") })
    }
}
