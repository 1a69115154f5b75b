import SwipeCLI
import Testing

@Suite("REPL Tab completion")
struct ReplCompletionTests {
    let ids = ["m-1", "m-2", "w-10"]

    @Test("a unique command completes with a space")
    func uniqueCommand() {
        let completion = ReplCompletion(lineBeforeCursor: "dr", profileIDs: ids)
        #expect(completion.candidates == ["drag"])
        #expect(completion.insertion == "ag ")
    }

    @Test("several commands complete their common prefix")
    func commonPrefix() {
        // "h": hate, help, history share only "h"; "he": help only.
        let h = ReplCompletion(lineBeforeCursor: "h", profileIDs: ids)
        #expect(h.candidates == ["hate", "help", "history"])
        #expect(h.insertion == "")
        let r = ReplCompletion(lineBeforeCursor: "r", profileIDs: ids)
        #expect(r.candidates == ["release", "reload", "report"])
        #expect(r.insertion == "e")
        let un = ReplCompletion(lineBeforeCursor: "un", profileIDs: ids)
        #expect(un.candidates == ["unblock", "undo", "unmatch"])
        #expect(un.insertion == "")
    }

    @Test("physics completes physics names, help command names, history profile ids")
    func arguments() {
        #expect(ReplCompletion(lineBeforeCursor: "physics s", profileIDs: ids).candidates == ["scrub", "stack"])
        #expect(ReplCompletion(lineBeforeCursor: "physics d", profileIDs: ids).insertion == "raggable ")
        #expect(ReplCompletion(lineBeforeCursor: "help und", profileIDs: ids).insertion == "o ")
        #expect(ReplCompletion(lineBeforeCursor: "history m", profileIDs: ids).candidates == ["m-1", "m-2"])
        #expect(ReplCompletion(lineBeforeCursor: "history w", profileIDs: ids).insertion == "-10 ")
        #expect(ReplCompletion(lineBeforeCursor: "block m", profileIDs: ids).candidates == ["m-1", "m-2"])
        #expect(ReplCompletion(lineBeforeCursor: "prefs a", profileIDs: ids).candidates == ["age"])
        #expect(ReplCompletion(lineBeforeCursor: "history ", profileIDs: ids).candidates == ids)
        #expect(ReplCompletion(lineBeforeCursor: "view ", profileIDs: ids).candidates == ["compact", "full"])
        #expect(ReplCompletion(lineBeforeCursor: "view f", profileIDs: ids).insertion == "ull ")
    }

    @Test("a one-word prompt completes from its candidates: the first-run profile id")
    func oneWord() {
        let completion = ReplCompletion(prefix: "m-", candidates: ["m-1", "m-2", "x-1"])
        #expect(completion.candidates == ["m-1", "m-2"])
        #expect(completion.insertion == "")
        #expect(ReplCompletion(prefix: "x", candidates: ["m-1", "x-1"]).insertion == "-1 ")
        #expect(ReplCompletion(prefix: "e", candidates: ["e\u{1B}]0;x\u{7}", "ev"]).candidates == ["ev"])
    }

    @Test("commands without arguments, and extra words, complete nothing")
    func nothing() {
        #expect(ReplCompletion(lineBeforeCursor: "drag 1", profileIDs: ids).candidates.isEmpty)
        #expect(ReplCompletion(lineBeforeCursor: "physics stack s", profileIDs: ids).candidates.isEmpty)
        #expect(ReplCompletion(lineBeforeCursor: "zzz", profileIDs: ids).candidates.isEmpty)
    }

    @Test("an empty line offers every command")
    func empty() {
        #expect(ReplCompletion(lineBeforeCursor: "", profileIDs: ids).candidates.count == ReplVerb.allSpellings.count)
    }
}
