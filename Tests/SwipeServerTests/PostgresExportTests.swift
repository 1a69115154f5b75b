import Foundation
import HTTPTypes
import HummingbirdTesting
import HummingbirdWSTesting
import Logging
import NIOPosix
import SwipeCore
import SwipePostgres
import SwipeSession
import SwipeStore
import SwipeTestSupport
import Testing
import WSClient

@testable import SwipeServer

/// `GET /me/export` and the socket's `me export` on PostgreSQL: the
/// signed-in viewer's document, as the store writes it for `swipe export`
/// (`exported_at` aside), whatever the query names.
@Suite(.needsPostgres) struct PostgresExportTests {
    let database: PostgresTestDatabase

    init() throws {
        database = try PostgresTestDatabase()
        let store = try PostgresStore(uri: database.uri, create: true)
        for id in ["alice", "bob", "carol"] { try store.upsert(Profile(id: id, name: "Name " + id, age: 30)) }
        _ = try store.record(viewer: "bob", profile: "alice", decision: .like, via: .button)
        _ = try store.record(viewer: "alice", profile: "bob", decision: .like, via: .button)
        _ = try store.block(viewer: "alice", profile: "carol")
    }

    @Test(.timeLimit(.minutes(1))) func theRouteAndTheSocketAnswerTheSignedInViewersDocument() async throws {
        let uri = database.uri
        let store = try PostgresStore(uri: uri, create: false)
        let token = AccessTokens(secret: try #require(try store.accessSecret(create: true)))
            .issue(viewer: "alice", expiry: Date().addingTimeInterval(3600))
        let backend = try DatabaseServerBackend(writes: .concurrent, connections: 2) {
            try PostgresStore(uri: uri, create: false)
        }
        let pool = NIOThreadPool(numberOfThreads: 4)
        pool.start()
        defer { pool.shutdownGracefully { _ in } }
        let server = try await SwipeServer(
            backend: backend, configuration: ServeConfiguration.testing(),
            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }, threadPool: pool)
        let downloaded = Box<String>(), answered = Box<[String: Any]>()
        try await server.application().test(.live) { client in
            // The socket first: opening a session is activity (rank_stats), a download is not.
            try await client.ws("/ws?token=" + token, configuration: ServerSocketTests.client) { inbound, outbound, _ in
                answered.value = try await ServerSocketTests.exchange(
                    ["me export"], inbound: inbound, outbound: outbound
                )
                .answers.first
                try await outbound.close(.normalClosure, reason: nil)
            }
            var headers = HTTPFields()
            headers[.cookie] = "swipe_token=" + token
            try await client.execute(uri: "/me/export?viewer=bob", method: .get, headers: headers) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentDisposition] == "attachment; filename=\"swipe-export-alice.json\"")
                downloaded.value = String(buffer: response.body)
            }
        }
        await server.stop()
        let oracle = try ExportRouteTests.object(try store.exportPersonalData(viewer: "alice", at: nil).json)
        let document = try ExportRouteTests.object(try #require(downloaded.value))
        #expect(document["viewer"] as? String == "alice")
        #expect((document["blocks"] as? [[String: Any]])?.map { $0["profile"] as? String } == ["carol"])
        #expect(ExportRouteTests.sameDocument(document, oracle))
        let socket = try #require(answered.value?["export"] as? [String: Any])
        #expect(ExportRouteTests.sameDocument(socket, oracle))
    }
}
