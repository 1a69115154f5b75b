import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import SwipeServer

/// `/healthz`: 200 while the database answers, 503 once it does not; no sign-in needed.
struct HealthTests {
    @Test func healthzSaysWhetherTheDatabaseAnswers() async throws {
        let fixture = try ServerFixture()
        try await fixture.withServer { client in
            try await client.execute(uri: "/healthz", method: .get) { response in
                #expect(response.status == .ok)
            }
            // The file goes away (and with it every table): the next query fails.
            try FileManager.default.removeItem(atPath: fixture.path)
            try? FileManager.default.removeItem(atPath: fixture.path + "-wal")
            try? FileManager.default.removeItem(atPath: fixture.path + "-shm")
            try await client.execute(uri: "/healthz", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
            }
        }
    }
}
