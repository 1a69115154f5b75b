import Foundation
import SwipeStore
import Testing

@testable import SwipePostgres

/// The server-side functions' outcomes are Swift enums (`DecideOutcome`,
/// `SendOutcome`, `UndoOutcome`), held here to the function text compiled
/// into the binary (`PostgresSchema.sql`): the words each function assigns
/// to `outcome` are exactly the enum's cases. No server is needed; the text
/// is read as a reader of schema.postgres.sql would, from `CREATE FUNCTION`
/// to the end of its body.
@Suite struct PostgresFunctionOutcomeTests {
    /// The words `outcome := '…'` assigns between a function's header and
    /// its closing `$$`; nil when the schema has no such function.
    static func words(assignedIn function: String) -> Set<String>? {
        let sql = PostgresSchema.sql
        guard let header = sql.range(of: "CREATE FUNCTION \(function)("),
            let open = sql.range(of: "AS $$", range: header.upperBound..<sql.endIndex),
            let close = sql.range(of: "$$;", range: open.upperBound..<sql.endIndex)
        else { return nil }
        let body = sql[open.upperBound..<close.lowerBound]
        let assignment = /outcome\s*:=\s*'([^']*)'/
        return Set(body.matches(of: assignment).map { String($0.output.1) })
    }

    static func cases<Outcome: PostgresFunctionOutcome>(_: Outcome.Type) -> Set<String> {
        Set(Outcome.allCases.map(\.rawValue))
    }

    @Test func decideOutcomesAreTheWordsSwipeDecideAssigns() throws {
        let words = try #require(Self.words(assignedIn: DecideOutcome.function))
        #expect(words.count >= 10, "the reader found too few words: \(words.sorted())")
        #expect(words == Self.cases(DecideOutcome.self))
    }

    @Test func sendOutcomesAreTheWordsSwipeSendAssigns() throws {
        let words = try #require(Self.words(assignedIn: SendOutcome.function))
        #expect(words.count >= 13, "the reader found too few words: \(words.sorted())")
        #expect(words == Self.cases(SendOutcome.self))
    }

    @Test func undoOutcomesAreTheWordsSwipeUndoAssigns() throws {
        let words = try #require(Self.words(assignedIn: UndoOutcome.function))
        #expect(words.count >= 5, "the reader found too few words: \(words.sorted())")
        #expect(words == Self.cases(UndoOutcome.self))
    }

    /// The reader itself can fail: a function the schema lacks (the
    /// version before `swipe_decide_2`) is not read as one with no words.
    @Test func aFunctionTheSchemaLacksIsNotRead() {
        #expect(Self.words(assignedIn: "swipe_decide_1") == nil)
    }

    /// A word this build has no case for (a newer function text) is refused
    /// as not stored, naming the function and the word, never taken as success.
    @Test func anUnknownWordIsRefusedNamingTheFunction() {
        #expect(throws: StoreError.notStored(table: "decisions", what: "swipe_decide_2 answered maybe")) {
            try DecideOutcome(answered: "maybe")
        }
        #expect(throws: StoreError.notStored(table: "messages", what: "swipe_send_2 answered recorded")) {
            try SendOutcome(answered: "recorded")
        }
        #expect(throws: StoreError.notStored(table: "decisions", what: "swipe_undo_1 answered sent")) {
            try UndoOutcome(answered: "sent")
        }
    }
}
