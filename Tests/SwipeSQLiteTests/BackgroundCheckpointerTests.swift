import Foundation
import SwipeCore
import SwipeSQLite
import SwipeTestSupport
import Testing

/// `swipe serve`'s checkpoints on a thread of their own: a commit never
/// checkpoints (SQLite's own hook would at 1000 pages), the thread does, and
/// a thread that falls too far behind is covered by the committing connection.
struct BackgroundCheckpointerTests {
    /// About 2,500 pages of WAL: one transaction per profile with a 2 KB name.
    static func write(_ store: SQLiteStore, from start: Int, count: Int) throws {
        for index in start..<(start + count) {
            try store.upsert(Profile(id: "p\(index)", name: String(repeating: "n", count: 2000), age: 30))
        }
    }

    @Test func commitsLeaveTheCheckpointToTheThread() throws {
        let folder = try TemporaryFolder()
        let store = try folder.store()
        let checkpointer = try BackgroundCheckpointer(path: store.connection.path, pages: 20, start: false)
        defer { checkpointer.stop() }
        checkpointer.attach(store.connection)
        try Self.write(store, from: 0, count: 2500)
        // No commit checkpointed: SQLite's automatic checkpoint would have
        // started the WAL over at 1000 pages.
        #expect(checkpointer.largestWALPages > 1000)
        #expect(checkpointer.checkpoints == 0)

        // The commits above asked for a checkpoint: started, the thread runs
        // one at once, with no write beside it, so it backfills the whole WAL.
        checkpointer.start()
        #expect(checkpointer.waitForCheckpoints(1, timeout: 60))
        // After a complete checkpoint the next commit starts the WAL over.
        try Self.write(store, from: 2500, count: 1)
        #expect(checkpointer.lastWALPages < 20)
        #expect(try store.connection.scalarInt("SELECT count(*) FROM profiles") == 2501)
    }

    @Test func aCheckpointerThatFallsBehindIsCoveredByTheCommits() throws {
        let folder = try TemporaryFolder()
        let store = try folder.store()
        // Never started: only the inline limit keeps the WAL in bounds.
        let checkpointer = try BackgroundCheckpointer(
            path: store.connection.path, pages: 20, inlineLimit: 200,
            start: false)
        checkpointer.attach(store.connection)
        try Self.write(store, from: 0, count: 2500)
        // One commit past the limit checkpoints; the WAL starts over at the next.
        #expect(checkpointer.largestWALPages < 200 + 10)
        #expect(checkpointer.checkpoints == 0)
    }
}
