import Foundation
import SwipeCore
import SwipeTestSupport
import Testing

@testable import SwipeStore

/// Moderation (issue 36; Documentation/Moderation.md), on both backends:
/// the role, the queue, suspensions and what they do to every path,
/// warnings, photo removal, resolving, the append-only log, and the abuse
/// limits on messages. Each expectation is the contract's, worked by hand.
@Suite struct ModerationTests {
    let stores = TestStores("swipe-moderation")

    /// Every id `viewer`'s feed deals, to the end.
    func dealt(_ store: any SwipeDatabase, to viewer: String) throws -> Set<String> {
        Set(try store.feed(viewer: viewer).nextProfiles(limit: 100, excluding: []).map(\.id))
    }

    func send(_ store: any SwipeDatabase, _ from: String, _ to: String, _ text: String, _ id: String, at: Date? = nil)
        throws -> SentMessage
    {
        try store.send(MessageSend(viewer: from, profile: to, text: text, clientID: id, at: at))
    }

    @Test(arguments: TestBackend.all) func aSuspensionHidesThePersonAndStopsTheirEveryAct(_ backend: TestBackend) throws
    {
        let store = try stores.store(backend, profiles: ["ana", "bo", "cy", "di"])
        // bo likes ana (a liker she has not decided); bo and cy match and talk.
        _ = try store.record(viewer: "bo", profile: "ana", decision: .like, via: .button)
        _ = try store.record(viewer: "bo", profile: "cy", decision: .like, via: .button)
        _ = try store.record(viewer: "cy", profile: "bo", decision: .like, via: .button)
        _ = try send(store, "cy", "bo", "hello", "m1")
        #expect(try dealt(store, to: "di").contains("bo"))
        #expect(try store.likes(viewer: "ana").map(\.profile) == ["bo"])
        let generation = try store.signInGeneration(viewer: "bo")

        let banned = try store.ban("bo", reason: "spam links", days: nil, by: nil, at: nil)
        #expect(banned.endsAt == nil && banned.bannedBy == "operator")
        #expect(try store.suspension(of: "bo", at: nil)?.reason == "spam links")
        #expect(try store.signInGeneration(viewer: "bo") == generation + 1, "every link made so far is void")
        // Never dealt, listed to no one, answered as an id that never existed.
        #expect(try !dealt(store, to: "di").contains("bo"))
        #expect(try !dealt(store, to: "ana").contains("bo"))
        #expect(try store.likes(viewer: "ana").isEmpty)
        #expect(try store.matches(viewer: "cy").isEmpty)
        #expect(try store.inbox(viewer: "cy", at: nil).isEmpty)
        #expect(try store.profile(id: "bo", seenBy: "cy") == nil)
        #expect(throws: StoreError.unknownProfile("bo")) {
            try store.record(viewer: "di", profile: "bo", decision: .like, via: .button, at: nil)
        }
        #expect(throws: StoreError.unknownProfile("bo")) { try send(store, "cy", "bo", "are you there", "m2") }
        // They can neither decide nor send.
        let refusal = StoreError.suspended(viewer: "bo", reason: "spam links", until: nil)
        #expect(throws: refusal) {
            try store.record(viewer: "bo", profile: "di", decision: .like, via: .button, at: nil)
        }
        #expect(throws: refusal) { try send(store, "bo", "cy", "let me in", "m3") }
        // A retry of what was stored before stays acknowledged.
        #expect(try send(store, "cy", "bo", "hello", "m1").isRetry)

        try store.unban("bo", by: nil, at: nil)
        #expect(try store.suspension(of: "bo", at: nil) == nil)
        #expect(try store.signInGeneration(viewer: "bo") == generation + 1, "links stay void after an unban")
        #expect(try dealt(store, to: "di").contains("bo"))
        #expect(try store.matches(viewer: "cy").map(\.profile) == ["bo"])
        #expect(try send(store, "bo", "cy", "sorry", "m4").message.seq == 2)
        #expect(
            try store.moderationLog().map { [$0.moderator, $0.action, $0.target, $0.reason] } == [
                ["operator", "ban", "bo", "spam links (for good)"], ["operator", "unban", "bo", ""],
            ])
    }

    @Test(arguments: TestBackend.all) func aSuspensionForDaysEndsByItself(_ backend: TestBackend) throws {
        let store = try stores.store(backend, profiles: ["ana", "bo"])
        let tenDaysAgo = Date().addingTimeInterval(-10 * 86_400)
        let banned = try store.ban("bo", reason: "cooling off", days: 7, by: nil, at: tenDaysAgo)
        #expect(banned.endsAt == Timestamp.string(from: tenDaysAgo.addingTimeInterval(7 * 86_400)))
        #expect(try store.suspension(of: "bo", at: tenDaysAgo.addingTimeInterval(86_400)) != nil)
        #expect(try store.suspension(of: "bo", at: nil) == nil, "seven days from ten days ago have passed")
        #expect(try dealt(store, to: "ana").contains("bo"))
        _ = try store.record(viewer: "bo", profile: "ana", decision: .like, via: .button, at: nil)
        #expect(throws: StoreError.self) { try store.ban("bo", reason: "x", days: 0, by: nil, at: nil) }
        #expect(throws: StoreError.self) { try store.ban("bo", reason: "  ", days: 1, by: nil, at: nil) }
    }

    @Test(arguments: TestBackend.all) func onlyModeratorsActAndEveryActIsLogged(_ backend: TestBackend) throws {
        let store = try stores.store(backend, profiles: ["ana", "bo", "cy"])
        #expect(throws: StoreError.notModerator("ana")) { try store.warn("bo", reason: "be kind", by: "ana", at: nil) }
        #expect(throws: StoreError.notModerator("ana")) { try store.moderationQueue(by: "ana") }
        try store.grantModerator("ana", by: nil, at: nil)
        #expect(try store.isModerator("ana"))
        #expect(throws: StoreError.self) { try store.grantModerator("ana", by: nil, at: nil) }
        try store.warn("bo", reason: "be kind", by: "ana", at: nil)
        #expect(throws: StoreError.selfAction("ana", action: "ban")) {
            try store.ban("ana", reason: "me", days: 1, by: "ana", at: nil)
        }
        try store.revokeModerator("ana", by: nil, at: nil)
        #expect(try !store.isModerator("ana"))
        #expect(throws: StoreError.notModerator("ana")) { try store.warn("bo", reason: "again", by: "ana", at: nil) }
        let log = try store.moderationLog()
        #expect(
            log.map { [$0.moderator, $0.action, $0.target, $0.reason] } == [
                ["operator", "grant", "ana", ""], ["ana", "warn", "bo", "be kind"], ["operator", "revoke", "ana", ""],
            ])
        #expect(log.map(\.seq) == log.map(\.seq).sorted() && Set(log.map(\.seq)).count == 3)
    }

    @Test(arguments: TestBackend.all) func theLogRefusesAnyChangeOrDeletion(_ backend: TestBackend) throws {
        let store = try stores.store(backend, profiles: ["ana", "bo"])
        try store.warn("bo", reason: "be kind", by: nil, at: nil)
        let database = try #require(store as? any SQLDatabase)
        #expect(throws: (any Error).self) { try database.executor.run("DELETE FROM moderation_log", []) }
        #expect(throws: (any Error).self) {
            try database.executor.run("UPDATE moderation_log SET reason = 'nothing'", [])
        }
        #expect(try store.moderationLog().map(\.reason) == ["be kind"])
    }

    @Test(arguments: TestBackend.all) func warningsWaitUntilAcknowledged(_ backend: TestBackend) throws {
        let store = try stores.store(backend, profiles: ["ana", "bo"])
        #expect(try store.pendingWarnings(viewer: "bo").isEmpty)
        try store.warn("bo", reason: "be kind", by: nil, at: nil)
        try store.warn("bo", reason: "no links", by: nil, at: nil)
        #expect(try store.pendingWarnings(viewer: "bo").map(\.reason) == ["be kind", "no links"])
        #expect(try store.pendingWarnings(viewer: "ana").isEmpty)
        #expect(try store.acknowledgeWarnings(viewer: "bo", at: nil) == 2)
        #expect(try store.pendingWarnings(viewer: "bo").isEmpty)
        #expect(try store.acknowledgeWarnings(viewer: "bo", at: nil) == 0)
        let export = try store.exportPersonalData(viewer: "bo", at: nil)
        let section = try #require(export.sections.first { $0.name == "moderation" })
        #expect(section.rows.count == 2, "a person's warnings are in their export")
    }

    @Test(arguments: TestBackend.all) func theQueueListsOpenReportsWithCountsAndResolvesThem(_ backend: TestBackend)
        throws
    {
        let store = try stores.store(backend, profiles: ["ana", "bo", "cy", "di"])
        let start = Date(timeIntervalSince1970: 1_795_000_000)
        try store.report(viewer: "ana", profile: "bo", reason: "fake photos", at: start)
        try store.report(viewer: "cy", profile: "bo", reason: "rude", at: start.addingTimeInterval(60))
        try store.report(viewer: "bo", profile: "di", reason: "spam", at: start.addingTimeInterval(120))
        let queue = try store.moderationQueue(by: nil)
        #expect(
            queue.map { [$0.kind, $0.profile, $0.reporter ?? "", $0.reason] } == [
                ["report", "bo", "ana", "fake photos"], ["report", "bo", "cy", "rude"], ["report", "di", "bo", "spam"],
            ])
        #expect(queue.map(\.reports) == [2, 2, 1])
        let first = queue[0].item
        let shown = try store.queueEvidence(first, by: nil)
        #expect(shown.item.reason == "fake photos" && shown.resolvedAt == nil)
        #expect(shown.name == "Name bo", "the evidence keeps the reported profile")
        try store.resolve(first, note: "photos checked: real", by: nil, at: nil)
        #expect(try store.moderationQueue(by: nil).map(\.reason) == ["rude", "spam"])
        #expect(try store.moderationQueue(by: nil).first?.reports == 1, "one open report about bo is left")
        #expect(try store.queueEvidence(first, by: nil).note == "photos checked: real")
        #expect(throws: StoreError.self) { try store.resolve(first, note: "again", by: nil, at: nil) }
        #expect(throws: StoreError.unknownQueueItem("999")) { try store.queueEvidence("999", by: nil) }
        #expect(throws: StoreError.unknownQueueItem("flag-x")) {
            try store.resolve("flag-x", note: "n", by: nil, at: nil)
        }
        #expect(try store.moderationLog().map(\.action) == ["resolve"])
    }

    @Test(arguments: TestBackend.all) func aModeratorRemovesAPhoto(_ backend: TestBackend) throws {
        let store = try stores.store(backend, profiles: ["ana", "bo"])
        var bo = try #require(try store.profile(id: "bo"))
        bo.photos = ["https://example.com/1.jpg", "https://example.com/2.jpg"]
        try store.upsert(bo)
        let left = try store.removePhoto(of: "bo", position: 1, reason: "nudity", by: nil, at: nil)
        #expect(left.photos == ["https://example.com/2.jpg"])
        #expect(try store.profile(id: "bo")?.photos == ["https://example.com/2.jpg"])
        #expect(throws: StoreError.self) {
            try store.removePhoto(of: "bo", position: 5, reason: "nudity", by: nil, at: nil)
        }
        #expect(
            try store.moderationLog().map { [$0.action, $0.target, $0.reason] } == [
                ["remove-photo", "bo photo 1", "nudity"]
            ])
    }

    /// Rule messages-per-minute: the 11th message to one person within a
    /// minute is refused, saying when it frees; another person, or a minute
    /// later, is fine.
    @Test(arguments: TestBackend.all) func messagesPerMinuteToOnePerson(_ backend: TestBackend) throws {
        let store = try stores.store(backend, profiles: ["ana", "bo", "cy"])
        for other in ["bo", "cy"] {
            _ = try store.record(viewer: "ana", profile: other, decision: .like, via: .button)
            _ = try store.record(viewer: other, profile: "ana", decision: .like, via: .button)
        }
        let start = Date().addingTimeInterval(-3600)
        for n in 0..<10 {
            _ = try send(store, "ana", "bo", "hi \(n)", "a\(n)", at: start.addingTimeInterval(Double(n)))
        }
        let eleventh = start.addingTimeInterval(30)
        let frees = Timestamp.string(from: start.addingTimeInterval(60))
        #expect(throws: StoreError.messageRefused(.tooFast(profile: "bo", limit: 10, freesAt: frees))) {
            try send(store, "ana", "bo", "one more", "a10", at: eleventh)
        }
        _ = try send(store, "ana", "cy", "hello", "c0", at: eleventh)
        _ = try send(store, "bo", "ana", "slow down", "b0", at: eleventh)
        _ = try send(store, "ana", "bo", "one more", "a10", at: start.addingTimeInterval(60.001))
        try store.setRule("messages-per-minute", "2")
        #expect(try store.rules().messagesPerMinute == 2)
        _ = try send(store, "ana", "cy", "two", "c1", at: eleventh.addingTimeInterval(1))
        #expect(throws: StoreError.self) {
            try send(store, "ana", "cy", "three", "c2", at: eleventh.addingTimeInterval(2))
        }
        #expect(throws: StoreError.self) { try store.setRule("messages-per-minute", "0") }
    }

    /// A first message copied word for word to 5 people within an hour
    /// flags its sender into the queue with the count; every send goes.
    @Test(arguments: TestBackend.all) func aCopiedFirstMessageFlagsTheSender(_ backend: TestBackend) throws {
        let others = (1...7).map { "p\($0)" }
        let store = try stores.store(backend, profiles: ["ana"] + others)
        for other in others {
            _ = try store.record(viewer: "ana", profile: other, decision: .like, via: .button)
            _ = try store.record(viewer: other, profile: "ana", decision: .like, via: .button)
        }
        let start = Date().addingTimeInterval(-7200)
        for (n, other) in others.prefix(4).enumerated() {
            _ = try send(store, "ana", other, "Visit my site!", "f\(n)", at: start.addingTimeInterval(Double(n) * 60))
        }
        #expect(try store.moderationQueue(by: nil).isEmpty, "4 copies flag nobody")
        _ = try send(store, "ana", "p5", "Visit my site!", "f4", at: start.addingTimeInterval(300))
        var queue = try store.moderationQueue(by: nil)
        #expect(
            queue.map { [$0.item.hasPrefix("flag-") ? "flag" : $0.item, $0.kind, $0.profile] } == [
                ["flag", "flag", "ana"]
            ])
        #expect(queue.first?.reason.contains("to 5 people") == true)
        _ = try send(store, "ana", "p6", "Visit my site!", "f5", at: start.addingTimeInterval(360))
        // A different text, and a copy more than an hour after the first ones, count apart.
        _ = try send(store, "ana", "p7", "Hi there", "f6", at: start.addingTimeInterval(400))
        queue = try store.moderationQueue(by: nil)
        #expect(queue.count == 1)
        #expect(queue.first?.reason.contains("to 6 people") == true)
        #expect(try store.inbox(viewer: "ana", at: nil).count == 7, "every send went")
    }
}
