import ArgumentParser
import Foundation
import SwipeCLI
import SwipeCommandLine
import SwipeSession
import SwipeStore

/// The `swipe` command line (README, "Command line"). `swipe` alone runs the REPL.
@main
struct SwipeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "swipe",
        abstract: "A matching-app core: a SQLite profile store, a four-card deck and a REPL.",
        version: SwipeVersion.current,
        subcommands: [
            ReplCommand.self, Import.self, History.self, Matches.self, Profiles.self, ProfileCommand.self, Stats.self,
            Prefs.self, Likes.self, Block.self, Unblock.self, Unmatch.self, ReportCommand.self, Reports.self,
            RulesCommand.self, Messages.self, Send.self, Inbox.self, ServeForward.self, LinkForward.self,
            MeCommand.self, Export.self, Erase.self, Moderate.self, Insights.self,
        ],
        defaultSubcommand: ReplCommand.self)

    /// Catches a mistyped subcommand before ArgumentParser would read it as
    /// a stray argument of the default `repl` and print the REPL's usage.
    static func main() {
        // `CommandLine.arguments` has already repaired bytes that are not
        // UTF-8 into U+FFFD: a message or a bio would be stored altered.
        for index in 1..<Int(CommandLine.argc) {
            guard let raw = CommandLine.unsafeArgv[index] else { continue }
            let bytes = Array(UnsafeBufferPointer(start: raw, count: strlen(raw))).map { UInt8(bitPattern: $0) }
            if let offset = TextLimits.firstInvalidUTF8(bytes) {
                var stderr = StandardError()
                let byte = String(bytes[offset], radix: 16, uppercase: true)
                stderr.write(
                    "swipe: argument \(index) is not valid UTF-8 (byte 0x\(byte) at byte \(offset + 1)); "
                        + "nothing was done\n")
                Foundation.exit(ExitStatus.usage)
            }
        }
        let arguments = Array(CommandLine.arguments.dropFirst())
        // `swipe serve …`, `swipe link …` and `swipe help serve|link` are swipe-serve's
        // (a subcommand comes first, as ArgumentParser reads it).
        let words = arguments.prefix(2)
        if let command = words.first(where: ServeCommands.names.contains),
            words.first == command || words.first == "help"
        {
            var stderr = StandardError()
            stderr.write("swipe: " + ServeCommands.replaceProcess(arguments: arguments, command: command) + "\n")
            Foundation.exit(ExitStatus.unavailable)
        }
        if let word = UnknownCommand.find(in: arguments, commands: commandNames) {
            var stderr = StandardError()
            stderr.write("swipe: " + UnknownCommand.message(for: word, commands: commandNames) + "\n")
            Foundation.exit(ExitStatus.usage)
        }
        main(nil)
    }

    static var commandNames: [String] { configuration.subcommands.map { $0._commandName } + ["help"] }
}

/// A first bare word on the command line that names no subcommand.
enum UnknownCommand {
    /// Options of bare `swipe` (the REPL's) that take a value: their value
    /// is not a command word.
    static let valueOptions: Set<String> = ["--db", "--as", "--physics", "--sync"]

    static func find(in arguments: [String], commands: [String]) -> String? {
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            if word == "--" { return nil }
            if word.hasPrefix("-") {
                index += valueOptions.contains(word) ? 2 : 1
                continue
            }
            return commands.contains(word) ? nil : word
        }
        return nil
    }

    static func message(for word: String, commands: [String]) -> String {
        let shown = "'" + TerminalText.sanitized(word) + "'"
        if let near = Spelling.suggestion(for: word, among: commands) {
            return "unknown command \(shown); did you mean '\(near)'?"
        }
        return "unknown command \(shown); the commands are " + commands.joined(separator: ", ")
            + " (swipe --help explains them)"
    }
}
