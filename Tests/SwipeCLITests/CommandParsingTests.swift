import Foundation
import SwipeCLI
import SwipeCore
import SwipeSession
import Testing

@Suite("REPL command parser")
struct CommandParsingTests {
    static let accepted: [(String, Command)] = [
        ("drag 60 -10", .event(.drag(dx: 60, dy: -10))),
        ("  drag   1.5e2   0  ", .event(.drag(dx: 150, dy: 0))),
        ("DRAG -0 0", .event(.drag(dx: 0, dy: 0))),
        ("drag 10000 -10000", .event(.drag(dx: 10_000, dy: -10_000))),
        ("drag 1000000 -1e6", .event(.drag(dx: 1_000_000, dy: -1_000_000))),
        ("drag +.5 7.", .event(.drag(dx: 0.5, dy: 7))),
        ("release 1e6 -1000000", .event(.release(vx: 1_000_000, vy: -1_000_000))),
        ("release", .event(.release(vx: 0, vy: 0))),
        ("release 1200 -30", .event(.release(vx: 1200, vy: -30))),
        ("like", .event(.button(.like))),
        ("hate", .event(.button(.hate))),
        ("nope", .event(.button(.hate))),
        ("NOPE", .event(.button(.hate))),
        ("superlike", .event(.button(.superlike))),
        ("tap", .event(.open)),
        ("open", .event(.open)),
        ("open p-024", .listed(.open("p-024"))),
        ("profile \"an id\"", .listed(.open("an id"))),
        ("tap 2", .listed(.open("2"))),
        ("like p-142", .listed(.decide("p-142", .like))),
        ("nope now", .listed(.decide("now", .hate))),
        ("superlike 1", .listed(.decide("1", .superlike))),
        ("back", .event(.close)),
        ("cancel", .event(.cancel)),
        ("undo", .event(.undo)),
        ("deck", .deck),
        ("history", .history(profile: nil)),
        ("history m-1", .history(profile: "m-1")),
        ("history \"a b\"", .history(profile: "a b")),
        ("history 'a  b'", .history(profile: "a  b")),
        ("history \"say \\\"hi\\\"\"", .history(profile: "say \"hi\"")),
        ("history \"\"", .history(profile: "")),
        ("history a\"b c\"d", .history(profile: "ab cd")),
        ("history \"back\\\\slash\"", .history(profile: "back\\slash")),
        ("history C:\\dir", .history(profile: "C:\\dir")),
        ("history 'say \"hi\"'", .history(profile: "say \"hi\"")),
        ("matches", .matches),
        ("reload", .event(.reload)),
        ("physics stack", .event(.setPhysics(.stack))),
        ("physics Draggable", .event(.setPhysics(.draggable))),
        ("physics tantan", .event(.setPhysics(.tantan))),
        ("physics scrub", .event(.setPhysics(.scrub))),
        ("help", .help(topic: nil)),
        ("help drag", .help(topic: .drag)),
        ("help tap", .help(topic: .open)),
        ("help nope", .help(topic: .hate)),
        ("quit", .quit),
        ("exit", .quit),
        ("prefs", .discovery(.prefs(nil))),
        ("prefs age 25-35", .discovery(.prefs(.age("25-35")))),
        ("prefs SEEKING f m", .discovery(.prefs(.seeking("f;m")))),
        ("prefs km off", .discovery(.prefs(.km("off")))),
        ("prefs location 52.52 13.40", .discovery(.prefs(.location("52.52 13.40")))),
        ("likes", .discovery(.likes)),
        ("block", .discovery(.block(nil))),
        ("block m-1", .discovery(.block("m-1"))),
        ("unblock m-1", .discovery(.unblock("m-1"))),
        ("unmatch m-1", .discovery(.unmatch("m-1"))),
        ("report m-1 fake  photos", .discovery(.report("m-1", reason: "fake  photos"))),
        ("me set bio I'm a \"night\" owl", .me(.set(.bio, "I'm a \"night\" owl"))),
        ("me set city \"\"", .me(.set(.city, ""))),
    ]

    @Test("every command in its accepted forms", arguments: accepted)
    func accepts(line: String, expected: Command) throws {
        #expect(try Command.parse(line) == expected)
    }

    @Test("blank lines and comments are nothing", arguments: ["", "   ", "\t", "# a comment", "  # drag 1 2"])
    func ignores(line: String) throws {
        #expect(try Command.parse(line) == nil)
    }

    @Test(
        "malformed lines name the problem, quote the input and show the right form",
        arguments: [
            ("drag abc", "drag takes two numbers: DX DY (got \"abc\"), e.g. drag 60 -10"),
            ("drag", "drag takes two numbers: DX DY (got nothing), e.g. drag 60 -10"),
            ("drag 1 2 3", "drag takes two numbers: DX DY (got \"1 2 3\"), e.g. drag 60 -10"),
            ("drag 1 x", "drag takes two numbers: DX DY (got \"x\"), e.g. drag 60 -10"),
            ("drag nan 0", "drag takes two numbers: DX DY (got \"nan\"), e.g. drag 60 -10"),
            ("drag inf 0", "drag takes two numbers: DX DY (got \"inf\"), e.g. drag 60 -10"),
            ("drag 0 -infinity", "drag takes two numbers: DX DY (got \"-infinity\"), e.g. drag 60 -10"),
            ("drag 0x10 0", "drag takes two numbers: DX DY (got \"0x10\"), e.g. drag 60 -10"),
            ("drag 0 0x1p4", "drag takes two numbers: DX DY (got \"0x1p4\"), e.g. drag 60 -10"),
            ("drag 1_000 0", "drag takes two numbers: DX DY (got \"1_000\"), e.g. drag 60 -10"),
            ("drag ١٢ 0", "drag takes two numbers: DX DY (got \"١٢\"), e.g. drag 60 -10"),
            ("drag . 0", "drag takes two numbers: DX DY (got \".\"), e.g. drag 60 -10"),
            ("drag 1e 0", "drag takes two numbers: DX DY (got \"1e\"), e.g. drag 60 -10"),
            ("drag -- 0", "drag takes two numbers: DX DY (got \"--\"), e.g. drag 60 -10"),
            (
                "drag 1e308 0",
                "drag takes finite numbers within ±1000000 points: DX DY (got \"1e308\"), e.g. drag 60 -10"
            ),
            (
                "drag 1e400 0",
                "drag takes finite numbers within ±1000000 points: DX DY (got \"1e400\"), e.g. drag 60 -10"
            ),
            (
                "drag 1000000.5 0",
                "drag takes finite numbers within ±1000000 points: DX DY (got \"1000000.5\"), e.g. drag 60 -10"
            ),
            ("drag 0 -1e7", "drag takes finite numbers within ±1000000 points: DX DY (got \"-1e7\"), e.g. drag 60 -10"),
            (
                "release 5",
                "release takes no numbers or two: [VX VY] in points per second (got \"5\"), e.g. release or release 1200 0"
            ),
            (
                "release 1 2 3",
                "release takes no numbers or two: [VX VY] in points per second (got \"1 2 3\"), e.g. release or release 1200 0"
            ),
            ("release fast 0", "release takes two numbers: VX VY (got \"fast\"), e.g. release 1200 0"),
            (
                "release 1e7 0",
                "release takes finite numbers within ±1000000 points per second: VX VY (got \"1e7\"), e.g. release 1200 0"
            ),
            ("release 0 NaN", "release takes two numbers: VX VY (got \"NaN\"), e.g. release 1200 0"),
            ("release 0x10 0", "release takes two numbers: VX VY (got \"0x10\"), e.g. release 1200 0"),
            // One word after like, hate, superlike or open is a profile id (`like ID`, issue 21); two are a mistake.
            (
                "nope now then",
                "hate takes no arguments (the top card) or one profile id (got \"now then\"), e.g. hate, or hate m-3"
            ),
            (
                "like now then",
                "like takes no arguments (the top card) or one profile id (got \"now then\"), e.g. like, or like m-3"
            ),
            (
                "hate x y",
                "hate takes no arguments (the top card) or one profile id (got \"x y\"), e.g. hate, or hate m-3"
            ),
            (
                "superlike 1 2",
                "superlike takes no arguments (the top card) or one profile id (got \"1 2\"), e.g. superlike, or superlike m-3"
            ),
            (
                "tap 2 3",
                "open takes no arguments (the top card) or one profile id (got \"2 3\"), e.g. open, or open m-3"
            ),
            ("back now", "back takes no arguments (got \"now\"), e.g. back"),
            ("cancel 3", "cancel takes no arguments (got \"3\"), e.g. cancel"),
            ("undo 2", "undo takes no arguments (got \"2\"), e.g. undo"),
            ("deck all", "deck takes no arguments (got \"all\"), e.g. deck"),
            (
                "matches all",
                "matches takes --with-messages, --since D and --until D (got \"all\"), e.g. matches --with-messages"
            ),
            ("reload now", "reload takes no arguments (got \"now\"), e.g. reload"),
            ("quit now", "quit takes no arguments (got \"now\"), e.g. quit"),
            (
                "history a b",
                "history takes at most one profile id: history [PROFILE_ID] (got \"a b\"), "
                    + "e.g. history m-1, or history \"an id\" for one with spaces"
            ),
            (
                "history \"a b",
                "history: the quote opened before \"a b\" is never closed; close it, e.g. history \"a b\""
            ),
            ("physics", "physics takes one name: tantan, draggable, stack, scrub (got nothing), e.g. physics stack"),
            (
                "physics bouncy",
                "physics takes one name: tantan, draggable, stack, scrub (got \"bouncy\"), e.g. physics stack"
            ),
            (
                "physics stack scrub",
                "physics takes one name: tantan, draggable, stack, scrub (got \"stack scrub\"), e.g. physics stack"
            ),
            (
                "help me please",
                "help takes at most one command name: help [COMMAND] (got \"me please\"), e.g. help drag"
            ),
            (
                "help fly",
                "help knows these commands: drag, release, cancel, like, hate, superlike, open, back, undo, deck, history, matches, reload, physics, view, prefs, me, likes, why, block, unblock, unmatch, report, chat, say, inbox, insights, acknowledge, moderate, help, quit (got \"fly\"), e.g. help drag"
            ),
            ("lik", "unknown command \"lik\": did you mean \"like\"? type help for the list of commands"),
            ("matc", "unknown command \"matc\": did you mean \"matches\"? type help for the list of commands"),
            ("swipe left", "unknown command \"swipe\": type help for the list of commands"),
            ("dra 1 2", "unknown command \"dra\": did you mean \"drag\"? type help for the list of commands"),
            ("d 1 2", "unknown command \"d\": type help for the list of commands"),
            // Typos that are no prefix: the nearest word by edit distance.
            ("relase", "unknown command \"relase\": did you mean \"release\"? type help for the list of commands"),
            ("histroy", "unknown command \"histroy\": did you mean \"history\"? type help for the list of commands"),
            (
                "physics tantn",
                "physics takes one name: tantan, draggable, stack, scrub (got \"tantn\"); did you mean \"physics tantan\"?, e.g. physics stack"
            ),
            ("view ful", "view takes compact or full (got \"ful\"); did you mean \"view full\"?, e.g. view full"),
            (
                "help relese",
                "help knows these commands: drag, release, cancel, like, hate, superlike, open, back, undo, deck, history, matches, reload, physics, view, prefs, me, likes, why, block, unblock, unmatch, report, chat, say, inbox, insights, acknowledge, moderate, help, quit (got \"relese\"); did you mean \"help release\"?, e.g. help drag"
            ),
        ])
    func rejects(line: String, message: String) {
        #expect(throws: CommandError(input: line, message: message)) { try Command.parse(line) }
    }

    /// A NUL cannot be typed, but a script or a pipe can hold one; the
    /// number readers stop at it, so `drag 150\0xyz 0` used to be `drag 150 0`.
    @Test(
        "a line holding a NUL byte is refused whole",
        arguments: [
            "drag 150\u{0}xyz 0", "\u{0}", "like\u{0}", "history a\u{0}b", "# comment\u{0}", "release 0\u{0} 0",
        ])
    func refusesNUL(line: String) {
        #expect(
            throws: CommandError(
                input: line.trimmingCharacters(in: .whitespaces),
                message: "the line holds a NUL byte (\\0), which no command takes; nothing was done")
        ) {
            try Command.parse(line)
        }
    }

    /// Every word Double() reads that is not a plain decimal number is
    /// refused; every plain decimal within the limit gives Double's value.
    @Test("numbers are plain decimals, checked against Double on random words")
    func plainDecimalsOnly() throws {
        for word in randomWords(5000, from: "0123456789+-.eExXpP_ainf", maxLength: 7) {
            // An independent model: the decimal grammar as a regular expression.
            let decimal =
                word.range(
                    of: #"^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$"#,
                    options: .regularExpression) != nil
            let parsed = try? Command.parse("drag \(word) 0")
            if decimal, let value = Double(word), value.isFinite, abs(value) <= 1e6 {
                #expect(parsed == .event(.drag(dx: value == 0 ? 0 : value, dy: 0)), "\(word)")
            } else {
                #expect(parsed == nil, "\(word) was accepted as \(String(describing: parsed))")
            }
        }
    }

    @Test("an ambiguous prefix suggests nothing rather than guessing")
    func ambiguousPrefix() {
        // "h" starts hate, history and help.
        #expect(
            throws: CommandError(input: "h", message: "unknown command \"h\": type help for the list of commands")
        ) {
            try Command.parse("h")
        }
    }
}
