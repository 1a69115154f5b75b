import SwipePostgres
import SwipeTestSupport
import Testing

/// LISTEN/NOTIFY between two sessions (for `swipe serve`'s match events later).
@Suite(.needsPostgres) struct NotifyTests {
    let database: PostgresTestDatabase
    init() throws { database = try PostgresTestDatabase() }

    @Test func aNotificationReachesTheListenerWithItsPayloadAndSender() throws {
        let listener = try database.connect()
        let sender = try database.connect()
        let channel = "matches \"for\" p-1"  // any text: quoted as an identifier
        try listener.listen(channel)
        #expect(try listener.notifications() == [])
        try sender.notify(channel, payload: #"{"event":"match","with":"p-2"}"#)
        try sender.notify("some other channel", payload: "not for us")
        let received = try listener.waitForNotifications(milliseconds: 60_000)
        #expect(
            received == [
                PGNotification(
                    channel: channel, payload: #"{"event":"match","with":"p-2"}"#, senderPID: sender.backendPID)
            ])
        #expect(try listener.notifications() == [])
    }

    @Test func notificationsWaitForTheSendersCommit() throws {
        let listener = try database.connect()
        let sender = try database.connect()
        try listener.listen("c")
        try sender.transaction {
            try sender.notify("c", payload: "1")
            try sender.notify("c", payload: "2")
            #expect(try listener.waitForNotifications(milliseconds: 200) == [])
        }
        var payloads: [String] = []
        while payloads.count < 2 {
            let batch = try listener.waitForNotifications(milliseconds: 60_000)
            #expect(!batch.isEmpty, "timed out")
            if batch.isEmpty { break }
            payloads += batch.map(\.payload)
        }
        #expect(payloads == ["1", "2"])
        try listener.unlisten("c")
        try sender.notify("c", payload: "3")
        #expect(try listener.waitForNotifications(milliseconds: 200) == [])
    }
}
