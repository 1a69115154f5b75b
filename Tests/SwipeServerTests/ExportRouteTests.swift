import Foundation
import HTTPTypes
import HummingbirdTesting
import HummingbirdWSTesting
import NIOCore
import SwipeCore
import SwipeSQLite
import SwipeSession
import SwipeStore
import SwipeTestSupport
import Testing
import WSClient

@testable import SwipeServer

/// Export from the page and the socket (Documentation/PersonalData.md,
/// "Export"): `GET /me/export` and the socket's `me export` answer the
/// document `swipe export --as V` writes for the signed-in viewer V, never
/// anyone else's; without a sign-in 401, from another site 403. The
/// oracle is the store's own document for V (what `swipe export` writes),
/// compared member by member but for `exported_at`, the moment of reading.
struct ExportRouteTests {
    let fixture: ServerFixture
    static let client = ServerSocketTests.client
    static let ownOrigin = "http://localhost"

    init() throws {
        fixture = try ServerFixture()
        // alice and bob match; carol likes alice; bob blocks dave.
        let store = try fixture.matchAliceAndBob()
        _ = try store.record(viewer: "carol", profile: "alice", decision: .like, via: .button)
        _ = try store.block(viewer: "bob", profile: "dave")
    }

    /// What `swipe export --as viewer` writes now, parsed.
    func expected(_ viewer: String) throws -> [String: Any] {
        let store = try SQLiteStore(path: fixture.path, create: false)
        return try Self.object(try store.exportPersonalData(viewer: viewer, at: nil).json)
    }

    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// `document` and `oracle` hold the same members and values, `exported_at` aside.
    static func sameDocument(_ document: [String: Any], _ oracle: [String: Any]) -> Bool {
        var document = document, oracle = oracle
        document["exported_at"] = nil
        oracle["exported_at"] = nil
        return NSDictionary(dictionary: document).isEqual(to: oracle)
    }

    func headers(_ viewer: String?, origin: String? = nil, site: String? = nil) throws -> HTTPFields {
        var headers = HTTPFields()
        if let viewer { headers[.cookie] = "swipe_token=" + (try fixture.token(for: viewer)) }
        if let origin { headers[.origin] = origin }
        if let site { headers[HTTPField.Name("Sec-Fetch-Site")!] = site }
        return headers
    }

    @Test func theSignedInViewersDocumentIsAFileToSave() async throws {
        let alice = try headers("alice"), fromPage = try headers("alice", origin: Self.ownOrigin, site: "same-origin")
        let bob = try headers("bob")
        let bodies = Box<[String]>()
        try await fixture.withServer { client in
            var seen: [String] = []
            for (uri, headers) in [
                ("/me/export", alice), ("/me/export?as=bob&viewer=bob", fromPage), ("/me/export", bob),
            ] {
                try await client.execute(uri: uri, method: .get, headers: headers) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                    #expect(response.headers[.cacheControl] == "no-store")
                    #expect(response.headers[.xContentTypeOptions] == "nosniff")
                    seen.append(response.headers[.contentDisposition] ?? "")
                    seen.append(String(buffer: response.body))
                }
            }
            bodies.value = seen
        }
        let got = try #require(bodies.value)
        try #require(got.count == 6)
        #expect(got[0] == "attachment; filename=\"swipe-export-alice.json\"")
        #expect(got[2] == got[0], "whatever the query says, it is the signed-in viewer's")
        #expect(got[4] == "attachment; filename=\"swipe-export-bob.json\"")
        let first = try Self.object(got[1]), second = try Self.object(got[3]), bobs = try Self.object(got[5])
        #expect(first["viewer"] as? String == "alice" && second["viewer"] as? String == "alice")
        #expect((first["profile"] as? [String: Any])?["lat"] as? Double == 38.7223, "one's own place, exact")
        #expect((first["matches"] as? [[String: Any]])?.map { $0["profile"] as? String } == ["bob"])
        #expect(Self.sameDocument(first, try expected("alice")))
        #expect(Self.sameDocument(second, try expected("alice")))
        #expect(bobs["viewer"] as? String == "bob")
        #expect((bobs["blocks"] as? [[String: Any]])?.map { $0["profile"] as? String } == ["dave"])
        #expect(Self.sameDocument(bobs, try expected("bob")))
        #expect(!got[1].contains("dave"), "bob's block is not alice's data")
    }

    @Test func withoutASignInItIs401AndFromAnotherSiteItIs403() async throws {
        let anonymous = try headers(nil)
        let foreign = try headers("alice", origin: "http://evil.example")
        let crossSite = try headers("alice", site: "cross-site")
        try await fixture.withServer { client in
            try await client.execute(uri: "/me/export", method: .get, headers: anonymous) { response in
                #expect(response.status == .unauthorized)
                #expect(String(buffer: response.body).contains("swipe link"))
                #expect(response.headers[.contentDisposition] == nil)
            }
            for refused in [foreign, crossSite] {
                try await client.execute(uri: "/me/export", method: .get, headers: refused) { response in
                    #expect(response.status == .forbidden)
                    #expect(String(buffer: response.body) == "Your data is downloaded from the page itself.\n")
                }
            }
        }
    }

    @Test(.timeLimit(.minutes(1))) func theSocketsMeExportAnswersTheDocumentAndWritesNoFile() async throws {
        let token = try fixture.token(for: "alice")
        let target = fixture.folder.path + "/stolen.json"
        let answers = Box<[[String: Any]]>()
        try await fixture.withServer { client in
            try await client.ws("/ws?token=" + token, configuration: Self.client) { inbound, outbound, _ in
                answers.value = try await ServerSocketTests.exchange(
                    ["me export", "me export " + target, "me export bob"], inbound: inbound, outbound: outbound
                ).answers
                try await outbound.close(.normalClosure, reason: nil)
            }
        }
        let all = try #require(answers.value)
        try #require(all.count == 3)
        #expect(all[0]["ok"] as? Bool == true && all[0]["command"] as? String == "me export")
        let document = try #require(all[0]["export"] as? [String: Any])
        #expect(document["viewer"] as? String == "alice")
        #expect(Self.sameDocument(document, try expected("alice")))
        for refused in all[1...] {
            #expect(refused["ok"] as? Bool == false)
            #expect((refused["error"] as? String)?.hasPrefix("me export: a page downloads your data") == true)
            #expect(refused["export"] == nil)
        }
        #expect(!FileManager.default.fileExists(atPath: target))
        #expect(!FileManager.default.fileExists(atPath: "bob"))
    }

    @Test func theFileNameKeepsOnlyCharactersSafeInAHeader() {
        #expect(SwipeServer.exportFileName("m-1") == "swipe-export-m-1.json")
        #expect(SwipeServer.exportFileName("a\"b\r\nc/ é") == "swipe-export-a_b__c___.json")
    }
}
