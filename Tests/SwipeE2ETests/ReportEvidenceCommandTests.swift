import Foundation
import SwipeCore
import SwipeSQLite
import SwipeStore
import SwipeTestSupport
import Testing

/// The reproduction of issue 36, defect 5, end to end: `swipe erase` of a
/// reported person made `swipe reports --messages` fail as a whole (`no
/// profile has id "erased-…"`, exit 1). It lists the kept conversation now.
@Suite final class ReportEvidenceCommandTests {
    let temporary = TemporaryFolder("swipe-evidence-cli")
    var db: String { temporary.path + "/swipe.sqlite" }

    @Test func reportsWithMessagesOutlivesTheReportedPersonsErase() throws {
        let store = try SQLiteStore(path: db)
        for id in ["ana", "bo"] { try store.upsert(Profile(id: id, name: "Name " + id, age: 30)) }
        _ = try store.record(viewer: "ana", profile: "bo", decision: .like, via: .button)
        _ = try store.record(viewer: "bo", profile: "ana", decision: .like, via: .button)
        _ = try store.send(MessageSend(viewer: "bo", profile: "ana", text: "you will regret it", clientID: "c1"))
        #expect(try SwipeBinary.run(["report", "--db", db, "--as", "ana", "bo", "threats"]).status == 0)
        let erased = try SwipeBinary.run(["erase", "--db", db, "--as", "bo", "--yes"])
        #expect(erased.status == 0, "\(erased.stderr)")
        let listed = try SwipeBinary.run(["reports", "--db", db, "--messages", "--format", "csv"])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains(",you will regret it,"), "\(listed.stdout)")
        #expect(listed.stdout.hasPrefix("reporter,reported,reported_at,seq,sender,text,sent_at\r\nana,"))
    }
}
