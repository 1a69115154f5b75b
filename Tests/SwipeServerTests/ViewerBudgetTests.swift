import Foundation
import HummingbirdTesting
import HummingbirdWSTesting
import SwipeTestSupport
import Testing
import WSClient

@testable import SwipeServer

/// Budgets per viewer, not only per socket (README, "Safety"): a viewer's
/// sockets are capped and share one command budget; a message over the
/// limit in fragments closes 1009, text that is not UTF-8 1007.
struct ViewerBudgetTests {
    let fixture: ServerFixture

    init() throws { fixture = try ServerFixture() }

    @Test func aViewersNinthSocketIsRefusedWith4029() async throws {
        let token = try fixture.token(for: "alice")
        let bob = try fixture.token(for: "bob")
        try await fixture.withServer { client in
            let port = try #require(client.port)
            var open: [RawConnection] = []
            for _ in 0..<8 {
                let connection = try RawConnection(port: port)
                #expect((try await offPool { try connection.upgrade("/ws?token=" + token, port: port) }) != nil)
                open.append(connection)
            }
            let ninth = try RawConnection(port: port)
            try ninth.sendUpgrade("/ws?token=" + token, port: port)
            #expect((try await offPool { ninth.closeCode() }) == 4029)
            // Another viewer is not affected.
            let other = try RawConnection(port: port)
            #expect((try await offPool { try other.upgrade("/ws?token=" + bob, port: port) }) != nil)
            #expect(open.count == 8)
        }
    }

    @Test func aViewersSocketsShareOneCommandBudget() async throws {
        let token = try fixture.token(for: "alice")
        var configuration = ServeConfiguration.testing()
        configuration.commandsPerSecond = 0.001
        configuration.commandBurst = 40
        try await fixture.withServer(configuration) { client in
            // The first socket spends 30 of the 40 and closes itself.
            try await client.ws("/ws?token=" + token) { inbound, outbound, _ in
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                _ = try await messages.next()
                for _ in 0..<30 {
                    try await outbound.writeTextMessage("drag 1 1")
                    _ = try await messages.next()
                }
                try await outbound.close(.normalClosure, reason: nil)
            }
            // A second socket of the same viewer has 10 left, not 40.
            let second = try await client.ws("/ws?token=" + token) { inbound, outbound, _ in
                for _ in 0..<30 { try await outbound.writeTextMessage("drag 1 1") }
                for try await _ in inbound.messages(maxSize: 1 << 20) {}
            }
            #expect(second?.closeCode == .policyViolation)
            #expect(second?.reason == "too many commands")
        }
    }

    @Test func aFragmentedMessageOverTheLimitCloses1009() async throws {
        let token = try fixture.token(for: "alice")
        try await fixture.withServer { client in
            let port = try #require(client.port)
            let connection = try RawConnection(port: port)
            #expect((try await offPool { try connection.upgrade("/ws?token=" + token, port: port) }) != nil)
            let part = [UInt8](repeating: UInt8(ascii: "x"), count: 40 * 1024)
            try connection.send(bytes: RawConnection.frame(opcode: 1, fin: false, part))
            try? connection.send(bytes: RawConnection.frame(opcode: 0, fin: false, part))
            try? connection.send(bytes: RawConnection.frame(opcode: 0, fin: true, Array(part.prefix(20 * 1024))))
            #expect((try await offPool { connection.closeCode() }) == 1009)
        }
    }

    @Test func textThatIsNotUTF8Closes1007() async throws {
        let token = try fixture.token(for: "alice")
        try await fixture.withServer { client in
            let port = try #require(client.port)
            let connection = try RawConnection(port: port)
            #expect((try await offPool { try connection.upgrade("/ws?token=" + token, port: port) }) != nil)
            try connection.send(bytes: RawConnection.frame(opcode: 1, [0x64, 0x65, 0xC3, 0x28]))
            #expect((try await offPool { connection.closeCode() }) == 1007)
        }
    }
}
