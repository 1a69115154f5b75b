import Foundation
import SwipeCore
import SwipeTestSupport
import Testing

@testable import SwipeStore

/// A profiles CSV's photos (Documentation/Photos.md) on every backend: a
/// relative path is read from the CSV's folder, checked and stored (its
/// GPS gone); https URLs stay; anything else is refused naming the file,
/// the line and the value; a re-import of the same files changes nothing.
@Suite struct PhotoImportTests {
    let stores = TestStores("swipe-photo-import")
    var folder: TemporaryFolder { stores.folder }

    func photoFiles() throws {
        try FileManager.default.createDirectory(atPath: folder.path + "/photos", withIntermediateDirectories: true)
        _ = folder.file("photos/ana.jpg", TestImages.jpeg().bytes)
        _ = folder.file("ana-2.png", TestImages.png())
    }

    static func ids(_ photos: [String]) -> [String] {
        photos.compactMap { if case .stored(let id) = PhotoItem($0) { id } else { nil } }
    }

    @Test(arguments: TestBackend.all)
    func relativePathsAreStoredAndURLsKept(_ backend: TestBackend) throws {
        let store = try stores.store(backend)
        try photoFiles()
        let csv = folder.file(
            "people.csv",
            "id,name,age,photos\nana,Ana,30,photos/ana.jpg; https://example.org/ana.jpg ;ana-2.png\nbo,Bo,40,\n")
        let summary = try importing(store).importProfiles(path: csv)
        #expect((summary.inserted, summary.updated) == (2, 0))
        let photos = try #require(try store.profile(id: "ana")).photos
        #expect(photos.count == 3 && photos[1] == "https://example.org/ana.jpg")
        let ids = Self.ids(photos)
        #expect(ids.count == 2)
        let jpeg = try #require(try store.servedPhoto(id: ids[0], viewer: "bo", unlessSHA256: nil))
        #expect(jpeg.mediaType == .jpeg)
        #expect(jpeg.bytes == (try PhotoBytes(checking: TestImages.jpeg().bytes)).bytes)
        #expect(!TestImages.contains(jpeg.bytes ?? [], TestImages.gpsLatitude), "GPS is gone before storing")
        #expect(try store.servedPhoto(id: ids[1], viewer: "bo", unlessSHA256: nil)?.mediaType == .png)

        // The same file again: nothing changes, not even a path.
        let again = try importing(store).importProfiles(path: csv)
        #expect((again.inserted, again.updated, again.unchanged) == (0, 0, 2))
        #expect(try store.profile(id: "ana")?.photos == photos)
        // Dropping a file from the list deletes its bytes; the other stays.
        let dropped = try importing(store).importProfiles(
            path: folder.file("dropped.csv", "id,name,age,photos\nana,Ana,30,ana-2.png\n"))
        #expect(dropped.updated == 1)
        #expect(try store.profile(id: "ana")?.photos == [photos[2]])
        #expect(try store.servedPhoto(id: ids[0], viewer: "ana", unlessSHA256: nil) == nil)
        #expect(try store.servedPhoto(id: ids[1], viewer: "ana", unlessSHA256: nil) != nil)
    }

    @Test(arguments: TestBackend.all)
    func whatCannotBeAPhotoIsRefusedNamingFileLineAndValue(_ backend: TestBackend) throws {
        let store = try stores.store(backend)
        try photoFiles()
        _ = folder.file("cat.gif", Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0])
        let csv = folder.file(
            "bad.csv",
            """
            id,name,age,photos
            a,A,30,http://example.org/a.jpg
            b,B,30,missing.jpg
            c,C,30,cat.gif
            d,D,30,/etc/passwd
            e,E,30,photos/ana.jpg;photos/ana.jpg
            f,F,30,photos/ana.jpg

            """)
        let failure = try #require(throws: ImportFailure.self) { try importing(store).importProfiles(path: csv) }
        let folderPath = URL(fileURLWithPath: folder.path).standardizedFileURL.path
        #expect(
            failure.issues.map(\.description) == [
                csv
                    + ":2: column photos: value \"http://example.org/a.jpg\": \"http://example.org/a.jpg\" is not a photo "
                    + "swipe can show: give a JPEG, PNG or WebP file, or an https:// URL",
                csv + ":3: column photos: value \"missing.jpg\": \(folderPath)/missing.jpg: no such file "
                    + "(a photo path is relative to the CSV file's folder)",
                csv
                    + ":4: column photos: value \"cat.gif\": \(folderPath)/cat.gif: not a JPEG, PNG or WebP image (13 bytes of GIF)",
                csv + ":5: column photos: value \"/etc/passwd\": \"/etc/passwd\" is not a photo swipe can show: "
                    + "give a JPEG, PNG or WebP file, or an https:// URL",
                csv + ":6: column photos: value \"photos/ana.jpg\": this photo is already photo 1 of the profile",
            ])
        #expect(try store.stats().profiles == 0)
        #expect(try store.profile(id: "f") == nil, "nothing half-written")
    }

    /// A stored photo's path, as `swipe profiles --format csv` writes it,
    /// imports back for its own profile only.
    @Test(arguments: TestBackend.all)
    func aStoredPathImportsBackForItsOwnProfileOnly(_ backend: TestBackend) throws {
        let store = try stores.store(backend)
        try photoFiles()
        _ = try importing(store).importProfiles(
            path: folder.file("a.csv", "id,name,age,photos\nana,Ana,30,ana-2.png\nbo,Bo,30,\n"))
        let path = try #require(try store.profile(id: "ana")?.photos.first)
        let back = try importing(store).importProfiles(
            path: folder.file("b.csv", "id,name,age,photos\nana,Ana,31,\(path)\n"))
        #expect(back.updated == 1)
        #expect(try store.profile(id: "ana")?.photos == [path])
        let failure = try #require(throws: ImportFailure.self) {
            try importing(store).importProfiles(path: folder.file("c.csv", "id,name,age,photos\nbo,Bo,30,\(path)\n"))
        }
        #expect(failure.issues.map(\.line) == [2])
        #expect(failure.issues.first?.message == "no stored photo of bo has this path")
        #expect(try store.profile(id: "bo")?.photos == [])
    }
}
