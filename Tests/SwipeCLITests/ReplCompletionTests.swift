import Foundation
import Testing

@testable import SwipeCLI
@testable import SwipeSession

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

    @Test("moderate completes its actions")
    func moderate() {
        #expect(
            ReplCompletion(lineBeforeCursor: "moderate r", profileIDs: ids).candidates
                == ["remove-photo", "resolve", "revoke"])
        #expect(ReplCompletion(lineBeforeCursor: "moderate q", profileIDs: ids).insertion == "ueue ")
        #expect(ReplCompletion(lineBeforeCursor: "acknowledge", profileIDs: ids).insertion == " ")
    }

    @Test("me completes its subcommands, me set its fields, me photo its subcommands")
    func me() {
        // The words `parseMe` reads, written out here by hand.
        #expect(
            ReplCompletion(lineBeforeCursor: "me ", profileIDs: ids).candidates == ["erase", "export", "photo", "set"])
        let ex = ReplCompletion(lineBeforeCursor: "me e", profileIDs: ids)
        #expect(ex.candidates == ["erase", "export"])
        #expect(ReplCompletion(lineBeforeCursor: "me exp", profileIDs: ids).insertion == "ort ")
        #expect(ReplCompletion(lineBeforeCursor: "me s", profileIDs: ids).insertion == "et ")
        #expect(
            ReplCompletion(lineBeforeCursor: "me set ", profileIDs: ids).candidates
                == ["age", "ages", "bio", "city", "gender", "interests", "km", "name", "place", "seeking"])
        let a = ReplCompletion(lineBeforeCursor: "me set a", profileIDs: ids)
        #expect(a.candidates == ["age", "ages"])
        #expect(a.insertion == "ge")
        #expect(ReplCompletion(lineBeforeCursor: "me set i", profileIDs: ids).insertion == "nterests ")
        #expect(ReplCompletion(lineBeforeCursor: "ME SET pl", profileIDs: ids).insertion == "ace ")
        #expect(ReplCompletion(lineBeforeCursor: "me photo ", profileIDs: ids).candidates == ["add", "move", "remove"])
        #expect(ReplCompletion(lineBeforeCursor: "me photo r", profileIDs: ids).insertion == "emove ")
        #expect(ReplCompletion(lineBeforeCursor: "me photos m", profileIDs: ids).insertion == "ove ")
        // A value, or a field inside a quote, completes nothing; nor does a typo's next word.
        #expect(ReplCompletion(lineBeforeCursor: "me set city L", profileIDs: ids).candidates.isEmpty)
        #expect(ReplCompletion(lineBeforeCursor: "me set \"a", profileIDs: ids).candidates.isEmpty)
        #expect(ReplCompletion(lineBeforeCursor: "me sett a", profileIDs: ids).candidates.isEmpty)
        #expect(ReplCompletion(lineBeforeCursor: "me photo add m", profileIDs: ids).candidates.isEmpty)
        // Every field completed is one `me set` knows.
        for field in ReplCompletion(lineBeforeCursor: "me set ", profileIDs: ids).candidates {
            #expect(MeField.spellings[field] != nil, "\(field)")
        }
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

    @Test("ids with spaces or quotes complete inside quotes, or quoted from an empty word")
    func quotedIDs() {
        let ids = ["a b", "a c", "x\"y", "plain"]
        let inside = ReplCompletion(lineBeforeCursor: "history \"a b", profileIDs: ids)
        #expect(inside.candidates == ["a b"])
        #expect(inside.insertion == "\" ")
        // two candidates share "a " (a space, fine inside quotes).
        #expect(ReplCompletion(lineBeforeCursor: "history \"a", profileIDs: ids).insertion == " ")
        // inside double quotes a quote is escaped; inside single quotes nothing is.
        #expect(ReplCompletion(lineBeforeCursor: "history \"x", profileIDs: ids).insertion == "\\\"y\" ")
        #expect(ReplCompletion(lineBeforeCursor: "history 'x", profileIDs: ids).insertion == "\"y' ")
        // an empty word takes the whole id, quoted only when it must be.
        #expect(ReplCompletion(lineBeforeCursor: "history ", profileIDs: ["a b"]).insertion == "\"a b\" ")
        #expect(ReplCompletion(lineBeforeCursor: "history ", profileIDs: ["plain"]).insertion == "plain ")
        // a bare word cannot take a space or a quote: completion stops before it.
        let bare = ReplCompletion(lineBeforeCursor: "history a", profileIDs: ["ab c"])
        #expect(bare.candidates == ["ab c"])
        #expect(bare.insertion == "b")
    }

    /// The oracle is the parser: a unique completion that ends the word makes
    /// the line name exactly that id; one that stops short leaves a prefix of it.
    @Test("a unique completion parses back to its id")
    func completionsParseBack() throws {
        for id in randomWords(3000, from: "ab \"'\\-", maxLength: 6) {
            guard id.trimmingCharacters(in: .whitespaces) == id, !id.isEmpty else { continue }
            let cut = Int.random(in: 0...id.count)
            let typed = String(id.prefix(cut))
            let openers = [
                "\"" + typed.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\""),
                typed.contains("'") ? nil : "'" + typed,
                typed.contains(where: { " \"'".contains($0) }) ? nil : typed,
            ].compactMap { $0 }
            for opener in openers {
                let line = "history " + opener
                let completion = ReplCompletion(lineBeforeCursor: line, profileIDs: [id])
                #expect(completion.candidates == [id], "\(line)")
                let after = line + completion.insertion
                let lexed = Command.lex(after)
                if lexed.endsBetweenWords {
                    // the word is finished: it is the id
                    #expect(try Command.parse(after) == .history(profile: id), "\(after)")
                } else {
                    // stopped short (a bare word cannot hold a space or a quote): still on the way to the id
                    let sofar = lexed.words.last ?? ""
                    #expect(id.hasPrefix(sofar) && sofar.count >= typed.count, "\(after)")
                }
            }
        }
    }

    @Test("an empty line offers every command")
    func empty() {
        #expect(ReplCompletion(lineBeforeCursor: "", profileIDs: ids).candidates.count == ReplVerb.allSpellings.count)
    }
}
