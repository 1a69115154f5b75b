import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SwipeSQLite
import SwipeStore
import SwipeTestSupport
import Testing

@testable import SwipeServer

/// `/photos/ID` (Documentation/Photos.md): only for a signed-in viewer,
/// never across a block, with the type its bytes say, an ETag that a 304
/// answers, `Cache-Control: private` and `nosniff`.
struct PhotoServeTests {
    let fixture: ServerFixture
    let photo: PhotoBytes
    let path: String
    let erinsPath: String

    init() throws {
        fixture = try ServerFixture()
        photo = try PhotoBytes(checking: TestImages.jpeg().bytes)
        let store = try SQLiteStore(path: fixture.path, create: false)
        let stored = try store.addPhoto(viewer: "bob", .bytes(photo), at: nil).photos[0]
        // As the server hands it to alice with bob's card (`PhotoGrant`).
        path = PhotoGrant.path(stored, secret: try store.makePhotoSecret(), viewer: "alice")
        erinsPath = PhotoGrant.path(stored, secret: try store.makePhotoSecret(), viewer: "erin")
        try store.block(viewer: "erin", profile: "bob")
    }

    func cookie(_ viewer: String) throws -> String { "swipe_token=" + (try fixture.token(for: viewer)) }

    @Test func aSignedInViewerGetsTheBytesWithTheirHeaders() async throws {
        let cookie = try cookie("alice")
        let photo = photo, path = path
        try await fixture.withServer { client in
            try await client.execute(uri: path, method: .get, headers: [.cookie: cookie]) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/jpeg")
                #expect(response.headers[.eTag] == "\"\(photo.sha256)\"")
                #expect(response.headers[.cacheControl] == "private, max-age=3600")
                #expect(response.headers[.xContentTypeOptions] == "nosniff")
                #expect(Array(buffer: response.body) == photo.bytes)
                #expect(!TestImages.contains(Array(buffer: response.body), TestImages.gpsLatitude))
            }
            // The browser's copy is current: 304, no bytes, the same ETag.
            try await client.execute(
                uri: path, method: .get, headers: [.cookie: cookie, .ifNoneMatch: "\"\(photo.sha256)\""]
            ) { response in
                #expect(response.status == .notModified)
                #expect(response.body.readableBytes == 0)
                #expect(response.headers[.eTag] == "\"\(photo.sha256)\"")
            }
            try await client.execute(
                uri: path, method: .get, headers: [.cookie: cookie, .ifNoneMatch: "\"0000\", W/\"\(photo.sha256)\""]
            ) { response in
                #expect(response.status == .notModified)
            }
            try await client.execute(uri: path, method: .get, headers: [.cookie: cookie, .ifNoneMatch: "\"0000\""]) {
                response in
                #expect(response.status == .ok)
            }
        }
    }

    @Test func withoutASignInItIs401AndAcrossABlock404() async throws {
        let erin = try cookie("erin"), alice = try cookie("alice")
        let path = path, erinsPath = erinsPath
        try await fixture.withServer { client in
            try await client.execute(uri: path, method: .get) { response in
                #expect(response.status == .unauthorized)
                #expect(response.body.readableBytes < 200)
            }
            try await client.execute(uri: erinsPath, method: .get, headers: [.cookie: erin]) { response in
                #expect(response.status == .notFound, "erin blocked bob: his photo is as if it did not exist")
            }
            let unknown = "/photos/" + String(repeating: "0", count: 32)
            for other in [unknown, "/photos/..%2F..%2Fserve.sqlite", "/photos/"] {
                try await client.execute(uri: other, method: .get, headers: [.cookie: alice]) { response in
                    #expect(response.status == .notFound, "\(other)")
                    #expect(response.headers[.contentType] == "text/plain; charset=utf-8")
                }
            }
        }
    }
}
