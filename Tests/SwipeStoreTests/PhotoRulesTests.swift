import Foundation
import SwipeCore
import SwipeTestSupport
import Testing

@testable import SwipeStore

/// The rules of photos (Documentation/Photos.md) on every backend: add,
/// remove and move keep the list and the stored rows in step; at most 9;
/// https URLs only; who may load a stored photo.
@Suite struct PhotoRulesTests {
    let stores = TestStores()

    func store(_ backend: TestBackend) throws -> any SwipeDatabase {
        let store = try stores.open(backend)
        for id in ["ana", "bo", "cy"] { try store.upsert(Profile(id: id, name: id.capitalized, age: 30)) }
        return store
    }

    static func photo(_ seed: UInt8) throws -> PhotoBytes { try PhotoBytes(checking: TestImages.png(seed: seed)) }

    static func id(_ item: String) -> String {
        guard case .stored(let id) = PhotoItem(item) else { return "" }
        return id
    }

    @Test(arguments: TestBackend.all)
    func addRemoveAndMoveKeepTheListAndTheRowsInStep(_ backend: TestBackend) throws {
        let store = try store(backend)
        let a = try Self.photo(1), b = try Self.photo(2)
        var profile = try store.addPhoto(viewer: "ana", .bytes(a), at: nil)
        profile = try store.addPhoto(viewer: "ana", .url("https://example.org/ana.jpg"), at: nil)
        profile = try store.addPhoto(viewer: "ana", .bytes(b), at: nil)
        #expect(profile.photos.count == 3)
        #expect(try store.profile(id: "ana")?.photos == profile.photos)
        let first = Self.id(profile.photos[0]), third = Self.id(profile.photos[2])
        #expect(profile.photos[0] == "/photos/" + first && profile.photos[1] == "https://example.org/ana.jpg")
        let served = try #require(try store.servedPhoto(id: first, viewer: "bo", unlessSHA256: nil))
        #expect(served.bytes == a.bytes && served.mediaType == .png && served.sha256 == a.sha256)
        #expect(served.byteSize == a.bytes.count)

        profile = try store.movePhoto(viewer: "ana", from: 3, to: 1)
        #expect(profile.photos.map(Self.id) == [third, first, ""])
        #expect(try store.profile(id: "ana")?.photos == profile.photos)

        profile = try store.removePhoto(viewer: "ana", position: 2)
        #expect(profile.photos == ["/photos/" + third, "https://example.org/ana.jpg"])
        #expect(try store.servedPhoto(id: first, viewer: "ana", unlessSHA256: nil) == nil, "its bytes went with it")
        #expect(try store.servedPhoto(id: third, viewer: "ana", unlessSHA256: nil)?.bytes == b.bytes)
        profile = try store.removePhoto(viewer: "ana", position: 2)
        #expect(profile.photos == ["/photos/" + third])
    }

    @Test(arguments: TestBackend.all)
    func refusalsNameTheRuleAndChangeNothing(_ backend: TestBackend) throws {
        let store = try store(backend)
        let a = try Self.photo(1)
        try store.addPhoto(viewer: "ana", .bytes(a), at: nil)
        #expect(throws: StoreError.photoRefused(.duplicate(position: 1))) {
            try store.addPhoto(viewer: "ana", .bytes(a), at: nil)
        }
        #expect(throws: StoreError.photoRefused(.notAllowed(value: "http://example.org/a.jpg"))) {
            try store.addPhoto(viewer: "ana", .url("http://example.org/a.jpg"), at: nil)
        }
        #expect(throws: StoreError.photoRefused(.noSuchPhoto(position: 2, count: 1))) {
            try store.removePhoto(viewer: "ana", position: 2)
        }
        #expect(throws: StoreError.photoRefused(.noSuchPhoto(position: 0, count: 1))) {
            try store.movePhoto(viewer: "ana", from: 0, to: 1)
        }
        #expect(throws: StoreError.photoRefused(.noSuchPhoto(position: 1, count: 0))) {
            try store.removePhoto(viewer: "bo", position: 1)
        }
        #expect(throws: StoreError.unknownProfile("zed")) { try store.addPhoto(viewer: "zed", .bytes(a), at: nil) }
        for seed in 2...9 { try store.addPhoto(viewer: "ana", .bytes(try Self.photo(UInt8(seed))), at: nil) }
        #expect(try store.profile(id: "ana")?.photos.count == 9)
        #expect(throws: StoreError.photoRefused(.tooMany(limit: 9))) {
            try store.addPhoto(viewer: "ana", .url("https://example.org/10.jpg"), at: nil)
        }
        #expect(try store.profile(id: "ana")?.photos.count == 9)
        // The same picture is another person's photo under another path.
        let bos = try store.addPhoto(viewer: "bo", .bytes(a), at: nil)
        #expect(bos.photos != [try store.profile(id: "ana")!.photos[0]])
    }

    /// A signed-in viewer may load any photo but one whose owner and the
    /// viewer are blocked from each other (either way): the same nil as an
    /// unknown photo. Its owner always may. A current copy gets no bytes.
    @Test(arguments: TestBackend.all)
    func whoMayLoadAStoredPhoto(_ backend: TestBackend) throws {
        let store = try store(backend)
        let a = try Self.photo(1)
        let id = Self.id(try store.addPhoto(viewer: "ana", .bytes(a), at: nil).photos[0])
        #expect(try store.servedPhoto(id: id, viewer: "bo", unlessSHA256: nil) != nil)
        #expect(try store.servedPhoto(id: id, viewer: "bo", unlessSHA256: a.sha256)?.bytes == nil)
        #expect(try store.servedPhoto(id: id, viewer: "bo", unlessSHA256: "0" + a.sha256.dropFirst())?.bytes == a.bytes)
        try store.block(viewer: "ana", profile: "bo")
        #expect(try store.servedPhoto(id: id, viewer: "bo", unlessSHA256: nil) == nil)
        #expect(try store.servedPhoto(id: id, viewer: "ana", unlessSHA256: nil) != nil)
        try store.block(viewer: "cy", profile: "ana")
        #expect(try store.servedPhoto(id: id, viewer: "cy", unlessSHA256: nil) == nil)
        #expect(try store.servedPhoto(id: String(repeating: "0", count: 32), viewer: "ana", unlessSHA256: nil) == nil)
        #expect(try store.servedPhoto(id: "../../etc", viewer: "ana", unlessSHA256: nil) == nil)
        #expect(try store.servedPhoto(id: id, viewer: "nobody", unlessSHA256: nil) == nil)
    }
}
