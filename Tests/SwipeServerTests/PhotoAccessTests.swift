import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SwipeCore
import SwipeSQLite
import SwipeStore
import SwipeTestSupport
import Testing

@testable import SwipeServer

/// Who may load a stored photo (Documentation/Photos.md, "Serving"): what
/// the page may show the viewer, not anyone signed in who has the path.
/// Their own photos, their matches', their likers', and those of anyone
/// who may be dealt to them as a card now (eligible both ways); anyone
/// else's is a 404, as a photo that does not exist.
struct PhotoAccessTests {
    let fixture: ServerFixture
    /// dave's photo: dave seeks women only and is a man seeking women; carol
    /// and bob have no gender, so dave is no card for them (nor they for him).
    let path: String

    init() throws {
        fixture = try ServerFixture()
        let store = try SQLiteStore(path: fixture.path, create: false)
        try store.upsert(Profile(id: "dave", name: "Name dave", age: 30, gender: "m"))
        try store.upsert(Profile(id: "erin", name: "Name erin", age: 30, gender: "f"))
        _ = try store.setPreferences(viewer: "dave", PreferencesChange(seeking: ["f"]))
        path = try store.addPhoto(viewer: "dave", .bytes(try PhotoBytes(checking: TestImages.png())), at: nil).photos[0]
    }

    func status(_ viewer: String, client: any TestClientProtocol) async throws -> HTTPResponse.Status {
        let cookie = "swipe_token=" + (try fixture.token(for: viewer))
        return try await client.execute(uri: path, method: .get, headers: [.cookie: cookie]) { $0.status }
    }

    @Test func onlyThoseThePageMayShowLoadAPhoto() async throws {
        let database = fixture.path
        try await fixture.withServer { client in
            let store = try SQLiteStore(path: database, create: false)
            // erin (a woman, seeking anyone) may be dealt dave: his card, his photo.
            #expect(try await status("erin", client: client) == .ok)
            // dave's own.
            #expect(try await status("dave", client: client) == .ok)
            // carol and bob are no card for dave's preferences: 404, path or not.
            #expect(try await status("carol", client: client) == .notFound)
            #expect(try await status("bob", client: client) == .notFound)
            // dave likes carol: she is shown him as a liker, and may see his photo.
            _ = try store.record(viewer: "dave", profile: "carol", decision: .like, via: .button)
            #expect(try await status("carol", client: client) == .ok)
            // Undone, the like no longer shows him to her.
            _ = try store.undo(viewer: "dave", profile: "carol", at: nil)
            #expect(try await status("carol", client: client) == .notFound)
            // bob and dave matched (imported likes both ways), then dave's
            // preferences changed: a match still sees the other's photos.
            _ = try store.record(viewer: "bob", profile: "dave", decision: .like, via: .button)
            _ = try store.record(viewer: "dave", profile: "bob", decision: .like, via: .button)
            #expect(try await status("bob", client: client) == .ok)
            try store.unmatch(viewer: "bob", profile: "dave", at: nil)
            #expect(try await status("bob", client: client) == .notFound, "unmatched: no longer shown")
        }
    }
}

/// The store's half of it on both backends: which viewers know a photo's
/// owner by a standing tie (`ServedPhoto.isKnownToViewer`); the server
/// shows anyone else's only to those the owner may be dealt to.
@Suite struct PhotoTieTests {
    let stores = TestStores("swipe-photo-ties")

    @Test(arguments: TestBackend.all) func ownMatchesAndUndecidedLikersKnowTheOwner(_ kind: TestBackend) throws {
        let store = try stores.store(kind, profiles: ["ana", "bo", "cy", "di"])
        let id = try #require(
            PhotoItem(
                try store.addPhoto(viewer: "ana", .bytes(try PhotoBytes(checking: TestImages.png())), at: nil).photos[0]
            ).storedID)
        func known(_ viewer: String) throws -> Bool? {
            try store.servedPhoto(id: id, viewer: viewer, unlessSHA256: nil)?.isKnownToViewer
        }
        #expect(try known("ana") == true, "her own")
        #expect(try known("bo") == false && known("cy") == false && known("di") == false)
        #expect(try store.servedPhoto(id: id, viewer: "bo", unlessSHA256: nil)?.owner == "ana")
        // ana likes bo: she is among his likers until he decides.
        _ = try store.record(viewer: "ana", profile: "bo", decision: .like, via: .button)
        #expect(try known("bo") == true)
        _ = try store.record(viewer: "bo", profile: "ana", decision: .hate, via: .button)
        #expect(try known("bo") == false, "decided: no longer a liker, and no match")
        // ana and cy match (superlike back).
        _ = try store.record(viewer: "cy", profile: "ana", decision: .like, via: .button)
        _ = try store.record(viewer: "ana", profile: "cy", decision: .superlike, via: .button)
        #expect(try known("cy") == true, "a match")
        try store.unmatch(viewer: "ana", profile: "cy", at: nil)
        #expect(try known("cy") == false, "unmatched")
        // di likes ana: ana knows nothing more of di's photos, nor di of ana's.
        _ = try store.record(viewer: "di", profile: "ana", decision: .like, via: .button)
        #expect(try known("di") == false)
    }
}

extension PhotoItem {
    /// The id of a stored photo's item, nil for a URL.
    fileprivate var storedID: String? {
        if case .stored(let id) = self { return id }
        return nil
    }
}
