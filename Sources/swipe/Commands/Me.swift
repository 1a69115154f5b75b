import ArgumentParser
import SwipeCLI
import SwipeCommandLine
import SwipeSession
import SwipeStore

/// `swipe me`: the viewer's own profile, shown or changed one field at a
/// time, with the REPL's grammar and checks (`MeInput`, `MeField.change`).
struct MeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "me",
        abstract: "Show or change your own profile (Documentation/PersonalData.md).",
        discussion: """
            With no words, prints the viewer's profile and preferences. `set FIELD VALUE…`
            changes one field: name, age, gender, city, bio, interests, place, seeking,
            ages, km, each checked as `swipe import` checks that column. `photo add FILE|URL`,
            `photo remove N`, `photo move N M` change the photos (Documentation/Photos.md).
            Example: swipe me --as m-1 set city Lyon; swipe me --as m-1 photo add ~/ana.jpg
            """)

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var viewer: ViewerOptions
    @OptionGroup var output: FormatOptions
    @Argument(
        parsing: .captureForPassthrough,
        help: ArgumentHelp(
            "Nothing, set FIELD VALUE…, or photo add|remove|move (the REPL's me command).",
            valueName: "set FIELD VALUE"))
    var words: [String] = []

    func run() throws {
        // The words are passed through whole (`me set bio -- a dash`), so help is asked for here.
        if words == ["--help"] || words == ["-h"] || words == ["help"] {
            print(SwipeCommand.helpMessage(for: Self.self))
            return
        }
        try ExitStatus.reporting {
            // The words are checked before the database is opened: a typo changes nothing.
            let input = try MeInput.parse(words)
            var answer: MeAnswer
            switch input {
            case .show:
                let store = try database.openReading()
                let id = try viewer.resolve(in: store)
                answer = MeAnswer(profile: try store.viewerProfile(id))
            case .erase:
                throw CommandError(
                    input: (["me"] + words).joined(separator: " "),
                    message: "from the command line, erase is its own command: swipe erase --as ID (--yes for scripts)")
            case .export:
                throw CommandError(
                    input: (["me"] + words).joined(separator: " "),
                    message: "from the command line, export is its own command: swipe export --as ID [FILE]")
            case .photo(let photo):
                let change = try photo.change(readingFiles: true)
                let store = try database.openExisting()
                let id = try viewer.resolve(in: store)
                answer = MeAnswer(
                    profile: try ViewerScope(store: store, viewer: id).changePhotos(change),
                    notice: photo.notice(change))
            case .set(let field, let value):
                let change = try field.change(value)
                let store = try database.openExisting()
                let id = try viewer.resolve(in: store)
                answer = MeAnswer(profile: try ViewerScope(store: store, viewer: id).apply(change))
                answer.notice = "\(field.rawValue) saved"
            }
            var out = StandardOutput()
            switch output.format {
            case .table:
                if answer.notice != nil {
                    // After a change: what was saved, then the profile as it now is.
                    out.write(TerminalText.sanitized(answer.notice!) + "\n")
                    answer.notice = nil
                }
                for line in answer.textLines(style: ReplStyle(color: Terminal.stdoutWantsColor)) {
                    out.write(line + "\n")
                }
            case .json, .jsonl, .csv:
                out.write(answer.json.serialized + "\n")
            }
        }
    }
}
