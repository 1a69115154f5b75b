import Foundation
import SwipeCore
import SwipeSQLite
import SwipeStore
import SwipeTestSupport
import Testing

/// Erased means gone from the files (issue 36, defect 7): after an erase
/// no byte of the person's rows stays in the SQLite file or its WAL. Before,
/// an erased person's message stayed in the WAL for minutes and the main
/// file kept their photo's bytes.
@Suite struct EraseLeavesNoBytesTests {
    let folder = TemporaryFolder("swipe-erase-bytes")

    static let bio = "ZEBRA-BIO-8271-private-words"
    static let message = "MSG-SECRET-5512-meet-me-at-the-old-mill"

    func bytes(_ path: String) -> [UInt8] {
        (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))) ?? []
    }

    @Test func noByteOfTheErasedRowsStaysInTheFileOrItsWAL() throws {
        let path = folder.path + "/erase.sqlite"
        let store = try SQLiteStore(path: path)
        try store.upsert(Profile(id: "zed", name: "Zed Secretname", age: 30, bio: Self.bio))
        try store.upsert(Profile(id: "amy", name: "Amy", age: 30))
        let photo = try PhotoBytes(checking: TestImages.png(width: 24, height: 24, metadata: false, seed: 77))
        try store.addPhoto(viewer: "zed", .bytes(photo), at: nil)
        _ = try store.record(viewer: "zed", profile: "amy", decision: .like, via: .button)
        _ = try store.record(viewer: "amy", profile: "zed", decision: .like, via: .button)
        _ = try store.send(MessageSend(viewer: "zed", profile: "amy", text: Self.message, clientID: "c-1"))
        // Everything reaches the main file too, as a long-running server's checkpoints would take it there.
        _ = try sqlite3Elsewhere(path, "PRAGMA wal_checkpoint(PASSIVE);")
        let needles = [Array(Self.bio.utf8), Array(Self.message.utf8), Array("Zed Secretname".utf8), photo.bytes]
        let before = bytes(path) + bytes(path + "-wal")
        // The test's files hold what it looks for, or it proves nothing.
        for needle in needles { #expect(TestImages.contains(before, needle)) }

        _ = try store.erase(viewer: "zed", at: nil)
        let after = bytes(path) + bytes(path + "-wal")
        for (index, needle) in needles.enumerated() {
            #expect(!TestImages.contains(after, needle), "needle \(index) is still in the files")
        }
        // Amy is untouched.
        #expect(try store.profile(id: "amy")?.name == "Amy")
    }
}
