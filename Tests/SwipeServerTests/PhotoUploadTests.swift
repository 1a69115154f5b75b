import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HummingbirdWSTesting
import NIOCore
import SwipeSQLite
import SwipeStore
import SwipeTestSupport
import Testing
import WSClient

@testable import SwipeServer

/// `POST /photos` (Documentation/Photos.md, "Uploading from the page"): the
/// page's way to add a photo. Only the page itself (its own Origin) of a
/// signed-in viewer; the same checks, stripping, limits and words as `me
/// photo add FILE`; stored so that `/photos/ID` serves the stripped bytes;
/// the viewer's open pages told `me-changed`. The refusals' words are the
/// contract's, written here by hand.
struct PhotoUploadTests {
    let fixture: ServerFixture

    init() throws {
        fixture = try ServerFixture()
    }

    /// The test client's requests go to `localhost`: the page's own origin.
    static let ownOrigin = "http://localhost"

    func headers(_ viewer: String?, origin: String? = ownOrigin) throws -> HTTPFields {
        var headers = HTTPFields()
        if let viewer { headers[.cookie] = "swipe_token=" + (try fixture.token(for: viewer)) }
        if let origin { headers[.origin] = origin }
        headers[.contentType] = "application/octet-stream"
        return headers
    }

    /// alice's photos as stored: the profile's list and the rows of `photos`.
    func stored(_ viewer: String = "alice") throws -> (list: [String], rows: Int) {
        let store = try SQLiteStore(path: fixture.path, create: false)
        let list = try #require(try store.profile(id: viewer)).photos
        return (list, try store.connection.scalarInt("SELECT count(*) FROM photos") ?? -1)
    }

    static func json(_ buffer: ByteBuffer) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(buffer.readableBytesView)) as? [String: Any])
    }

    @Test func withoutASignInItIs401AndFromAnotherOriginItIs403AndNothingIsStored() async throws {
        let png = TestImages.png()
        let anonymous = try headers(nil)
        let foreign = try headers("alice", origin: "http://evil.example")
        let noOrigin = try headers("alice", origin: nil)
        try await fixture.withServer { client in
            try await client.execute(
                uri: "/photos?name=a.png", method: .post, headers: anonymous, body: .init(bytes: png)
            ) { response in
                #expect(response.status == .unauthorized)
                #expect(String(buffer: response.body).contains("swipe link"))
            }
            for refused in [foreign, noOrigin] {
                try await client.execute(
                    uri: "/photos?name=a.png", method: .post, headers: refused, body: .init(bytes: png)
                ) { response in
                    #expect(response.status == .forbidden)
                    #expect(String(buffer: response.body) == "Photos are uploaded from the page itself.\n")
                }
            }
        }
        let after = try stored()
        #expect(after.list.isEmpty && after.rows == 0)
    }

    @Test func sixMegabytesIs413InTheWordsOfMePhotoAddAndNothingIsStored() async throws {
        // A JPEG's first bytes, then zeros: 6 MB in all (6 × 1024 × 1024 bytes).
        let big = [0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 0, count: 6 * 1024 * 1024 - 4)
        let headers = try headers("alice")
        try await fixture.withServer { client in
            try await client.execute(
                uri: "/photos?name=holiday.jpg", method: .post, headers: headers, body: .init(bytes: big)
            ) { response in
                #expect(response.status == .contentTooLarge)
                let answer = try Self.json(response.body)
                #expect(answer["ok"] as? Bool == false)
                #expect(
                    answer["error"] as? String
                        == "me photo add: holiday.jpg: the JPEG is 6.0 MB (6291456 bytes), over the 5.0 MB (5242880 bytes) a photo may be"
                )
            }
            // The connection (and the server) still serve the next request.
            try await client.execute(
                uri: "/photos?name=a.png", method: .post, headers: headers, body: .init(bytes: TestImages.png())
            ) { response in #expect(response.status == .created) }
        }
        #expect(try stored().rows == 1, "only the PNG after it")
    }

    @Test func aPNGIsStoredStrippedAndServedBackByteForByte() async throws {
        let png = TestImages.png()
        let expected = try PhotoBytes(checking: png)
        #expect(expected.bytes != png, "the test PNG carries text chunks to strip")
        let alice = try headers("alice")
        let bob = try headers("bob", origin: nil)
        let secret = try SQLiteStore(path: fixture.path, create: false).makePhotoSecret()
        try await fixture.withServer { client in
            let path = try await client.execute(
                uri: "/photos?name=me%20at%20home.png", method: .post, headers: alice, body: .init(bytes: png)
            ) { response in
                #expect(response.status == .created)
                #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                #expect(response.headers[.xContentTypeOptions] == "nosniff")
                let answer = try Self.json(response.body)
                #expect(answer["ok"] as? Bool == true)
                #expect(answer["command"] as? String == "me photo add me at home.png")
                #expect(answer["notice"] as? String == "photo added")
                let me = try #require(answer["me"] as? [String: Any])
                #expect(me["id"] as? String == "alice")
                let photos = try #require(me["photos"] as? [String])
                #expect(photos.count == 1 && photos[0].hasPrefix("/photos/"))
                #expect(response.headers[.location] == photos[0])
                return photos[0]
            }
            // As bob is handed it with alice's card (`PhotoGrant`).
            let bobsPath = PhotoGrant.path(path, secret: secret, viewer: "bob")
            try await client.execute(uri: bobsPath, method: .get, headers: bob) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/png")
                #expect(Array(buffer: response.body) == expected.bytes)
                #expect(!TestImages.contains(Array(buffer: response.body), Array("tEXt".utf8)))
            }
        }
        #expect(try stored().list.count == 1)
    }

    @Test func aJPEGsGPSTagsAreStrippedBeforeItIsStored() async throws {
        let jpeg = TestImages.jpeg()
        #expect(TestImages.contains(jpeg.bytes, TestImages.gpsLatitude))
        let headers = try headers("alice"), given = jpeg.bytes
        try await fixture.withServer { client in
            try await client.execute(
                uri: "/photos?name=gps.jpg", method: .post, headers: headers, body: .init(bytes: given)
            ) { response in #expect(response.status == .created) }
        }
        let store = try SQLiteStore(path: fixture.path, create: false)
        let list = try stored().list
        guard list.count == 1, case .stored(let id) = PhotoItem(list[0]) else {
            Issue.record("alice's photos: \(list)")
            return
        }
        let photo = try #require(try store.servedPhoto(id: id, viewer: "alice"))
        let bytes = try #require(photo.bytes)
        #expect(photo.mediaType == .jpeg)
        #expect(
            !TestImages.contains(bytes, TestImages.gpsLatitude) && !TestImages.contains(bytes, TestImages.gpsLongitude))
        #expect(!TestImages.contains(bytes, Array(TestImages.comment.utf8)))
        #expect(TestImages.contains(bytes, jpeg.scan), "the image itself is kept byte for byte")
    }

    @Test func theTenthPhotoIsRefusedByTheRuleOfNineAndNotAnImageBySaying() async throws {
        let headers = try headers("alice")
        try await fixture.withServer { client in
            for seed in 0..<9 {
                try await client.execute(
                    uri: "/photos?name=p\(seed).png", method: .post, headers: headers,
                    body: .init(bytes: TestImages.png(seed: UInt8(seed)))
                ) { response in #expect(response.status == .created, "photo \(seed + 1)") }
            }
            try await client.execute(
                uri: "/photos?name=p9.png", method: .post, headers: headers, body: .init(bytes: TestImages.png(seed: 9))
            ) { response in
                #expect(response.status == .conflict)
                let answer = try Self.json(response.body)
                #expect(answer["ok"] as? Bool == false)
                #expect(answer["error"] as? String == "a profile may have at most 9 photos; remove one first")
            }
            try await client.execute(
                uri: "/photos?name=cat.gif", method: .post, headers: headers,
                body: .init(bytes: Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0])
            ) { response in
                #expect(response.status == .unsupportedMediaType)
                let answer = try Self.json(response.body)
                #expect(
                    answer["error"] as? String
                        == "me photo add: cat.gif: not a JPEG, PNG or WebP image (13 bytes of GIF)")
            }
        }
        let after = try stored()
        #expect(after.list.count == 9 && after.rows == 9)
    }

    /// The viewer's open pages (their sockets) hear `me-changed` and ask again.
    @Test(.timeLimit(.minutes(1))) func theViewersOpenPagesAreToldMeChanged() async throws {
        let token = try fixture.token(for: "alice")
        let headers = try headers("alice")
        let pushed = Box<[String: Any]>()
        try await fixture.withServer { client in
            try await client.ws("/ws?token=" + token, configuration: ServerSocketTests.client) { inbound, outbound, _ in
                var frames = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                _ = try await frames.next()  // hello: the socket is registered
                try await client.execute(
                    uri: "/photos?name=a.png", method: .post, headers: headers, body: .init(bytes: TestImages.png())
                ) { response in #expect(response.status == .created) }
                guard case .text(let text) = try await frames.next() else { throw CancellationError() }
                pushed.value = try ServerSocketTests.object(text)
                try await outbound.close(.normalClosure, reason: nil)
            }
        }
        #expect(pushed.value?["event"] as? String == "me-changed")
    }

    // MARK: the body, read without holding more than the limit

    @Test func aDeclaredLengthOverTheLimitIsRefusedAfterItsFirstChunk() async throws {
        let chunks = Chunks(
            [ByteBuffer(bytes: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2])], failAfter: true)
        let body = try await UploadBody.read(chunks, declaredLength: 9_000_000, limit: 1000)
        #expect(body == .tooLarge(bytes: 9_000_000, head: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2]))
    }

    @Test func aChunkedBodyOverTheLimitIsCountedNotKept() async throws {
        let chunk = ByteBuffer(bytes: [UInt8](repeating: 7, count: 400))
        let over = try await UploadBody.read(
            Chunks(Array(repeating: chunk, count: 3)), declaredLength: nil, limit: 1000)
        #expect(over == .tooLarge(bytes: 1200, head: [UInt8](repeating: 7, count: 16)))
        let under = try await UploadBody.read(
            Chunks(Array(repeating: chunk, count: 2)), declaredLength: nil, limit: 1000)
        #expect(under == .complete([UInt8](repeating: 7, count: 800)))
        let exactly = try await UploadBody.read(
            Chunks([ByteBuffer(bytes: [UInt8](repeating: 1, count: 1000))]), declaredLength: 1000, limit: 1000)
        #expect(exactly == .complete([UInt8](repeating: 1, count: 1000)))
    }
}

/// Chunks of a body, one after another; with `failAfter`, asking for one
/// more than the first fails the test (the reader must not read on).
struct Chunks: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let chunks: [ByteBuffer]
    var failAfter = false

    init(_ chunks: [ByteBuffer], failAfter: Bool = false) {
        self.chunks = chunks
        self.failAfter = failAfter
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        var rest: ArraySlice<ByteBuffer>
        let failAfter: Bool
        var given = 0

        mutating func next() async throws -> ByteBuffer? {
            if failAfter && given == 1 {
                Issue.record("read past the first chunk of a body declared too large")
            }
            given += 1
            return rest.popFirst()
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(rest: chunks[...], failAfter: failAfter) }
}
