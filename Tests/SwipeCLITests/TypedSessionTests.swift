import Foundation
import SwipeCore
import SwipeSession
import SwipeStore
import Testing

/// The session as an app that embeds swipe uses it: a `Command` value in,
/// a typed `Outcome` out, with no line of text on either side. The oracles
/// are the fixture's, worked by hand: m-1 already likes the viewer, so
/// liking the top card (m-1, the first profile dealt) makes a match.
@Suite struct TypedSessionTests {
    @Test func aLikeThatMatchesIsATypedAnswer() throws {
        let ledger = TestLedger(likedBy: ["m-1"])
        var session = try Fixture.session(ledger: ledger)
        let outcome = session.perform(.event(.button(.like)))
        let answer = try #require(outcome.answer)
        #expect(outcome.succeeded && outcome.refusal == nil)
        #expect(answer.decisions.map(\.0.profile.id) == ["m-1"])
        #expect(answer.decisions.map(\.0.decision) == [.like])
        #expect(answer.decisions.first?.1.match != nil)
        #expect(answer.isMatch)
        // The deck after it: m-1 gone from the top, the next card Wen.
        #expect(answer.snapshot.cards.first?.profile?.id == "w-2")
        #expect(ledger.entries.map(\.profileID) == ["m-1"])
    }

    @Test func theStoresRefusalIsItsTypedError() throws {
        var session = try Fixture.session()
        let outcome = session.perform(.discovery(.unblock("nobody")))
        let refusal = try #require(outcome.refusal)
        guard case .store(.unknownProfile("nobody")) = refusal.reason else {
            Issue.record("expected the store's unknownProfile, got \(refusal.reason)")
            return
        }
        #expect(!refusal.isFailure)
        #expect(refusal.message.contains("nobody"))
    }

    @Test func theDecksRefusalIsItsTypedError() throws {
        var session = try Fixture.session()
        // `back` with no detail page open: the deck refuses, nothing is recorded.
        let outcome = session.perform(.event(.close))
        guard case .deck(let refusal)? = outcome.refusal?.reason else {
            Issue.record("expected the deck's refusal, got \(String(describing: outcome.refusal))")
            return
        }
        #expect(outcome.refusal?.message == refusal.replMessage)
    }

    @Test func aFailedWriteIsAFailureNotARefusalAndNothingIsStored() throws {
        let ledger = TestLedger()
        var session = try Fixture.session(ledger: ledger)
        ledger.failNextWrite = true
        let outcome = session.perform(.event(.button(.hate)))
        let refusal = try #require(outcome.refusal)
        #expect(refusal.isFailure)
        #expect(ledger.entries.isEmpty)
        // The same command again is stored once.
        #expect(session.perform(.event(.button(.hate))).succeeded)
        #expect(ledger.entries.map(\.profileID) == ["m-1"])
    }

    @Test func aCommandObjectThatIsNotValidIsACommandRefusal() throws {
        let error = #expect(throws: CommandError.self) {
            try JSONDecoder().decode(Command.self, from: Data(#"{"cmd":"like","id":7,"colour":"red"}"#.utf8))
        }
        #expect(error?.message.contains("like takes no \"colour\"") == true)
    }
}
