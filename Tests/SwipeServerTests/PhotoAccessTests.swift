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

/// Who may load a stored photo (Documentation/Photos.md, "Serving"): those
/// its owner has been shown to, not anyone signed in who has the path, and
/// never as a function of anyone's preferences (issue 36, defect 2: "200
/// exactly when the owner could be dealt to the asker" read the owner's
/// private preferences back). Their own photos, their matches', their
/// likers', and those whose path came to them with a card or a detail page
/// (its `?for=` grant, made for them); anyone else's is a 404, as a photo
/// that does not exist.
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

    func status(_ viewer: String, _ uri: String? = nil, client: any TestClientProtocol) async throws
        -> HTTPResponse.Status
    {
        let cookie = "swipe_token=" + (try fixture.token(for: viewer))
        return try await client.execute(uri: uri ?? path, method: .get, headers: [.cookie: cookie]) { $0.status }
    }

    /// The path as a server hands it to `viewer` with dave's card.
    func granted(to viewer: String) throws -> String {
        let secret = try SQLiteStore(path: fixture.path, create: false).makePhotoSecret()
        return PhotoGrant.path(path, secret: secret, viewer: viewer)
    }

    @Test func onlyThoseTheOwnerWasShownToLoadAPhoto() async throws {
        let database = fixture.path
        let erinsPath = try granted(to: "erin")
        try await fixture.withServer { client in
            let store = try SQLiteStore(path: database, create: false)
            // erin may be dealt dave, but was not shown him: the bare path is a 404.
            #expect(try await status("erin", client: client) == .notFound)
            // Dealt his card, she was handed the path with her grant.
            #expect(try await status("erin", erinsPath, client: client) == .ok)
            // Her grant is hers: carol, who has it, loads nothing with it, nor with a forged one.
            #expect(try await status("carol", erinsPath, client: client) == .notFound)
            #expect(
                try await status("carol", path + "?for=" + String(repeating: "0", count: 32), client: client)
                    == .notFound)
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
            // A block hides it, grant or not.
            try store.block(viewer: "dave", profile: "erin")
            #expect(try await status("erin", erinsPath, client: client) == .notFound)
        }
    }

    /// The reproduction of defect 2: carol changes her own age and gender
    /// back and forth and asks for dave's photo each time. Whatever she is,
    /// the answer is the same, so it says nothing of what dave seeks.
    @Test func theAnswerNeverDependsOnAnyonesPreferences() async throws {
        let database = fixture.path
        let carolsPath = try granted(to: "carol")
        try await fixture.withServer { client in
            let store = try SQLiteStore(path: database, create: false)
            var bare: Set<HTTPResponse.Status> = [], withGrant: Set<HTTPResponse.Status> = []
            for (gender, age) in [("f", 30), ("m", 30), ("f", 70), ("x", 25), ("f", 30)] {
                try store.upsert(Profile(id: "carol", name: "Name carol", age: age, gender: gender))
                bare.insert(try await status("carol", client: client))
                withGrant.insert(try await status("carol", carolsPath, client: client))
            }
            #expect(bare == [.notFound])
            #expect(withGrant == [.ok])
        }
    }
}

/// The store's half of it on both backends: which viewers know a photo's
/// owner by a standing tie (`ServedPhoto.isKnownToViewer`); the server
/// shows anyone else's only with the grant it handed them (`PhotoGrant`).
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
