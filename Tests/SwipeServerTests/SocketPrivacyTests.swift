import Foundation
import HummingbirdTesting
import HummingbirdWSTesting
import SwipeCore
import SwipeSQLite
import SwipeStore
import SwipeTestSupport
import Testing
import WSClient

@testable import SwipeServer

/// What a socket tells a browser (issue 23): another person's card carries
/// what the page shows and a distance rounded on the server; a viewer's own
/// changes of place are rationed; a block reaches the blocked person's open
/// deck and is told as a card that is gone; a failure of the store reaches
/// the browser as a neutral line with an id, the detail only the log.
struct SocketPrivacyTests {
    let fixture: ServerFixture
    static let hidden: Set<String> = ["lat", "lon", "seeking", "age_min", "age_max", "max_km"]
    static let client = ServerSocketTests.client

    init() throws {
        fixture = try ServerFixture()
        let store = try SQLiteStore(path: fixture.path, create: false)
        // alice in Lisbon; bob about 4.3 km away, with preferences of his own.
        try store.upsert(
            Profile(
                id: "alice", name: "Name alice", age: 30, gender: "f",
                location: Location(lat: 38.7223, lon: -9.1393)))
        try store.upsert(
            Profile(
                id: "bob", name: "Name bob", age: 30, gender: "m",
                location: Location(lat: 38.7500, lon: -9.1100),
                preferences: Preferences(seeking: ["f"], ageMin: 25, ageMax: 40, maxKm: 30)))
        // bob, carol and dave like alice, in that order: likers come first in
        // the order they liked, so alice's deck is bob, carol, dave whatever
        // the ranking makes of everyone after them.
        for (offset, liker) in ["bob", "carol", "dave"].enumerated() {
            _ = try store.record(
                viewer: liker, profile: "alice", decision: .like, via: .button,
                at: Date(timeIntervalSince1970: 1_795_000_000 + Double(offset)))
        }
    }

    /// Reads frames until one that is not an event; returns it and the events before it.
    static func answer(_ messages: inout WebSocketInboundMessageStream.AsyncIterator) async throws
        -> (answer: [String: Any], events: [[String: Any]])
    {
        var events: [[String: Any]] = []
        while case .text(let text) = try await messages.next() {
            let object = try ServerSocketTests.object(text)
            if object["event"] == nil { return (object, events) }
            events.append(object)
        }
        throw CancellationError()
    }

    @Test func cardsAndTheDetailPageCarryWhatThePageShowsAndADistanceRoundedOnTheServer() async throws {
        let token = try fixture.token(for: "alice")
        let result = Box<[[String: Any]]>()
        try await fixture.withServer { client in
            try await client.ws("/ws?token=" + token, configuration: Self.client) { inbound, outbound, _ in
                result.value = try await ServerSocketTests.exchange(
                    ["deck", "open"], inbound: inbound,
                    outbound: outbound
                ).answers
                try await outbound.close(.normalClosure, reason: nil)
            }
        }
        let answers = try #require(result.value)
        try #require(answers.count == 2)
        let profiles = try #require(answers[0]["profiles"] as? [[String: Any]])
        let detail = try #require(answers[1]["detail"] as? [String: Any], "\(answers[1])")
        for profile in profiles + [detail] {
            #expect(Self.hidden.isDisjoint(with: profile.keys), "\(profile)")
        }
        let bob = try #require(profiles.first { $0["id"] as? String == "bob" })
        // 4.3 km by haversine; shown in whole km, within the cells' 2.5 km.
        let km = try #require(bob["distance_km"] as? Int)
        #expect(abs(Double(km) - 4.3) <= 2.5)
        #expect(detail["id"] as? String == "bob" && detail["distance_km"] as? Int == km)
        #expect(detail["name"] as? String == "Name bob" && detail["age"] as? Int == 30)
        // carol has no place: no distance.
        #expect(profiles.first { $0["id"] as? String == "carol" }?["distance_km"] is NSNull)
    }

    /// Stepping one's place 100 m at a time is refused after the budget
    /// (six an hour by default), on this socket and on a new one.
    @Test func aViewersChangesOfPlaceAreRationedAcrossTheirSockets() async throws {
        let token = try fixture.token(for: "alice")
        let steps = (1...9).map { String(format: "prefs location %.4f -9.1393", 38.7223 + Double($0) * 0.0009) }
        let first = Box<[[String: Any]]>(), second = Box<[[String: Any]]>()
        try await fixture.withServer { client in
            try await client.ws("/ws?token=" + token, configuration: Self.client) { inbound, outbound, _ in
                first.value = try await ServerSocketTests.exchange(steps, inbound: inbound, outbound: outbound).answers
                try await outbound.close(.normalClosure, reason: nil)
            }
            try await client.ws("/ws?token=" + token, configuration: Self.client) { inbound, outbound, _ in
                second.value = try await ServerSocketTests.exchange(
                    ["prefs location 40 -9", "prefs", "like"],
                    inbound: inbound, outbound: outbound
                ).answers
                try await outbound.close(.normalClosure, reason: nil)
            }
        }
        let answers = try #require(first.value)
        #expect(answers.map { $0["ok"] as? Bool } == Array(repeating: true, count: 6) + [false, false, false])
        #expect(answers.last?["error"] as? String == SocketSession.tooManyChanges)
        #expect(answers.last?["cards"] != nil, "a refusal carries the deck")
        let other = try #require(second.value)
        #expect(other.map { $0["ok"] as? Bool } == [false, true, true], "another socket shares the budget")
        let stored = try #require(try SQLiteStore(path: fixture.path, create: false).profile(id: "alice")?.location)
        #expect(abs(stored.lat - (38.7223 + 6 * 0.0009)) < 1e-9)
    }

    /// bob blocks alice while her deck shows him: her page is told its deck
    /// changed, and her next answer no longer holds him. A block made
    /// elsewhere (another program) is met when she acts on the card or opens
    /// it: told exactly as a card that is gone, never as a block.
    @Test(.timeLimit(.minutes(1)))
    func aBlockReachesTheBlockedPersonsOpenDeckAndIsToldAsACardThatIsGone() async throws {
        let alice = try fixture.token(for: "alice"), bob = try fixture.token(for: "bob")
        let path = fixture.path
        let seen = Box<[String: Any]>(), acted = Box<[[String: Any]]>(), events = Box<[[String: Any]]>()
        try await fixture.withServer { client in
            try await client.ws("/ws?token=" + alice, configuration: Self.client) { inbound, outbound, _ in
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                _ = try await messages.next()  // hello
                try await outbound.writeTextMessage("deck")
                let deck = try await Self.answer(&messages).answer
                #expect((deck["cards"] as? [[String: Any]])?.first?["profile"] as? String == "bob")
                try await client.ws("/ws?token=" + bob, configuration: Self.client) { inbound, outbound, _ in
                    _ = try await ServerSocketTests.exchange(["block alice"], inbound: inbound, outbound: outbound)
                    try await outbound.close(.normalClosure, reason: nil)
                }
                // The push comes before anything else alice is sent.
                guard case .text(let pushed) = try await messages.next() else { throw CancellationError() }
                events.value = [try ServerSocketTests.object(pushed)]
                try await outbound.writeTextMessage("deck")
                seen.value = try await Self.answer(&messages).answer
                // Blocks made by another program: carol blocks alice, dave reports her.
                let store = try SQLiteStore(path: path, create: false)
                try store.block(viewer: "carol", profile: "alice")
                try store.report(viewer: "dave", profile: "alice", reason: "rude")
                var answers: [[String: Any]] = []
                for line in ["like", "open"] {
                    try await outbound.writeTextMessage(line)
                    answers.append(try await Self.answer(&messages).answer)
                }
                acted.value = answers
                try await outbound.close(.normalClosure, reason: nil)
            }
        }
        #expect(events.value?.first?["event"] as? String == "deck-changed")
        let after = try #require(seen.value)
        #expect(after["ok"] as? Bool == true)
        let ids = (after["cards"] as? [[String: Any]])?.compactMap { $0["profile"] as? String } ?? []
        #expect(ids.first == "carol" && !ids.contains("bob"), "\(ids)")
        let answers = try #require(acted.value)
        try #require(answers.count == 2)
        #expect(
            answers[0]["error"] as? String
                == "carol is no longer in the database (deleted by another program); that card leaves the deck")
        #expect(
            answers[1]["error"] as? String
                == "dave is no longer in the database (deleted by another program); that card leaves the deck")
        #expect(answers[1]["mode"] as? String == "deck" && answers[1]["detail"] == nil, "dave's page never opens")
        for answer in answers {
            #expect(!"\(answer)".contains("block"), "\(answer)")
        }
        #expect(try fixture.decisions(of: "alice").isEmpty)
    }

    @Test func aFailureOfTheStoreReachesTheBrowserAsANeutralLineAndTheLogInFull() async throws {
        let token = try fixture.token(for: "alice")
        let path = fixture.path
        let result = Box<[[String: Any]]>()
        // A table gone from under the server: any SQL on it fails.
        _ = try sqlite3Elsewhere(path, "DROP TABLE reports")
        try await fixture.withServer { client in
            try await client.ws("/ws?token=" + token, configuration: Self.client) { inbound, outbound, _ in
                result.value = try await ServerSocketTests.exchange(
                    ["deck", "report carol rude", "like"],
                    inbound: inbound, outbound: outbound
                ).answers
                try await outbound.close(.normalClosure, reason: nil)
            }
        }
        let answers = try #require(result.value)
        try #require(answers.count == 3)
        let error = try #require(answers[1]["error"] as? String, "\(answers[1])")
        let id = try #require(
            error.firstMatch(of: /^something went wrong on the server \(failure ([0-9a-f]+)\); try again$/),
            "\(error)"
        ).1
        for secret in ["reports", "SQL", "sqlite", "SQLite", path, "INSERT"] {
            #expect(!error.contains(secret), "\(error)")
        }
        #expect(answers[1]["cards"] != nil)
        #expect(answers[2]["ok"] as? Bool == true, "a refusal of the rules is told as ever, and the socket goes on")
        let logged = try #require(fixture.logs.all.first { $0.contains("failure=\(id)") })
        #expect(logged.contains("reports"), "\(logged)")
    }
}
