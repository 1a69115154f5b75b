import Foundation
import SwipeStore
import SwipeTestSupport
import Testing

/// `swipe me … photo add|remove|move` and a photo's way through export and
/// erase (Documentation/Photos.md), as a user or a script runs them, on
/// each backend.
@Suite final class PhotoCommandTests {
    let temporary = TemporaryFolder("swipe-photo-command")
    let stores = TestStores()

    func database(_ backend: TestBackend) throws -> String {
        let db = try stores.database(backend, sqlite: temporary.path + "/swipe.sqlite")
        let profiles = temporary.file("people.csv", "id,name,age\nm-1,Mo,30\nm-2,Ana,28\n")
        let result = try SwipeBinary.run(["import", "--db", db, profiles])
        #expect(result.status == 0, "\(result.stderr)")
        return db
    }

    func me(_ db: String, _ words: [String]) throws -> SwipeBinary.Result {
        try SwipeBinary.run(["me", "--db", db, "--as", "m-1"] + words)
    }

    @Test(arguments: TestBackend.all) func photosAreAddedMovedRemovedExportedAndErased(_ backend: TestBackend) throws {
        let db = try database(backend)
        let jpeg = temporary.file("gps.jpg", TestImages.jpeg().bytes)
        let added = try me(db, ["photo", "add", jpeg])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.hasPrefix("photo added\n"), "\(added.stdout)")
        #expect(try me(db, ["photo", "add", "https://example.org/mo.jpg"]).status == 0)
        let refused = try me(db, ["photo", "add", "http://example.org/mo.jpg"])
        #expect(refused.status == 64)
        #expect(
            refused.stderr.contains(
                "\"http://example.org/mo.jpg\" is not a photo swipe can show: give a JPEG, PNG or WebP file, or an https:// URL"
            ), "\(refused.stderr)")
        let gif = temporary.file("cat.gif", Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0])
        let notImage = try me(db, ["photo", "add", gif])
        #expect(notImage.status != 0)
        #expect(
            notImage.stderr.contains("\(gif): not a JPEG, PNG or WebP image (13 bytes of GIF)"), "\(notImage.stderr)")
        #expect(
            try me(db, ["photo", "remove", "3"]).stderr.contains("there is no photo 3: the profile has 2 (1 to 2)"))

        let moved = try me(db, ["--format", "json", "photo", "move", "2", "1"])
        #expect(moved.status == 0, "\(moved.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(moved.stdout.utf8)) as? [String: Any])
        let photos = try #require((object["me"] as? [String: Any])?["photos"] as? [String])
        #expect(object["notice"] as? String == "photo 2 moved to 1")
        #expect(photos.count == 2 && photos[0] == "https://example.org/mo.jpg" && photos[1].hasPrefix("/photos/"))

        // Export carries the stored photo's bytes: the stripped ones, no GPS.
        let file = temporary.path + "/m-1.json"
        let exported = try SwipeBinary.run(["export", "--db", db, "--as", "m-1", file])
        #expect(exported.status == 0, "\(exported.stderr)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any])
        let rows = try #require(Self.section("photos", in: document))
        #expect(rows.count == 1)
        #expect(rows.first?["path"] as? String == photos[1])
        let bytes = try #require((rows.first?["bytes"] as? String).flatMap { Data(base64Encoded: $0) })
        #expect([UInt8](bytes) == (try PhotoBytes(checking: TestImages.jpeg().bytes)).bytes)
        #expect(!TestImages.contains([UInt8](bytes), TestImages.gpsLatitude))

        let removed = try me(db, ["photo", "remove", "2"])
        #expect(removed.status == 0 && removed.stdout.hasPrefix("photo 2 removed\n"), "\(removed.stderr)")
        #expect(try me(db, ["photo", "add", jpeg]).status == 0)
        let erased = try SwipeBinary.run(["erase", "--db", db, "--as", "m-1", "--yes"])
        #expect(erased.status == 0, "\(erased.stderr)")
        #expect(try me(db, []).status != 0, "m-1 is gone")
        // No stored photo is left: another person's export still works and a
        // fresh add for m-2 is photo 1 of 1.
        let other = try SwipeBinary.run(["me", "--db", db, "--as", "m-2", "photo", "add", jpeg])
        #expect(other.status == 0, "\(other.stderr)")
    }

    /// The document's rows of `name`, wherever the format keeps its sections.
    static func section(_ name: String, in document: [String: Any]) -> [[String: Any]]? {
        if let rows = document[name] as? [[String: Any]] { return rows }
        if let sections = document["sections"] as? [String: Any], let rows = sections[name] as? [[String: Any]] {
            return rows
        }
        if let data = document["data"] as? [String: Any], let rows = data[name] as? [[String: Any]] { return rows }
        return nil
    }
}
