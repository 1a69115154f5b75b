import ArgumentParser
import Foundation
import SwipeCLI
import SwipeCommandLine
import SwipeSession
import SwipeStore

/// `swipe block --as V ID`.
struct Block: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Block a profile: neither sees, decides about or is listed to the other; a match ends.")

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var viewer: ViewerOptions
    @Argument(help: ArgumentHelp("The profile to block.", valueName: "PROFILE_ID")) var profile: String

    func run() throws {
        try ExitStatus.reporting {
            let store = try database.openExisting()
            let id = try viewer.resolve(in: store)
            let outcome = try store.block(viewer: id, profile: profile)
            print(
                TerminalText.sanitized("\(id) blocked \(profile)" + (outcome.endedMatch ? "; their match ended" : "")))
        }
    }
}

/// `swipe unblock --as V ID`.
struct Unblock: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Lift the viewer's block of a profile.")

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var viewer: ViewerOptions
    @Argument(help: ArgumentHelp("The profile to unblock.", valueName: "PROFILE_ID")) var profile: String

    func run() throws {
        try ExitStatus.reporting {
            let store = try database.openExisting()
            let id = try viewer.resolve(in: store)
            try store.unblock(viewer: id, profile: profile)
            print(TerminalText.sanitized("\(id) unblocked \(profile)"))
        }
    }
}

/// `swipe unmatch --as V ID`.
struct Unmatch: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "End a match for both sides, for good: the pair never matches again.")

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var viewer: ViewerOptions
    @Argument(help: ArgumentHelp("The matched profile.", valueName: "PROFILE_ID")) var profile: String

    func run() throws {
        try ExitStatus.reporting {
            let store = try database.openExisting()
            let id = try viewer.resolve(in: store)
            try store.unmatch(viewer: id, profile: profile)
            print(TerminalText.sanitized("\(id) and \(profile) are no longer a match"))
        }
    }
}

/// `swipe report --as V ID REASON…`.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Report a profile to the moderators; the viewer also blocks it.")

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var viewer: ViewerOptions
    @Argument(help: ArgumentHelp("The profile to report.", valueName: "PROFILE_ID")) var profile: String
    @Argument(help: ArgumentHelp("Why, in words.", valueName: "REASON")) var reason: [String] = []

    func run() throws {
        try ExitStatus.reporting {
            let store = try database.openExisting()
            let id = try viewer.resolve(in: store)
            try store.report(viewer: id, profile: profile, reason: reason.joined(separator: " "))
            print(TerminalText.sanitized("\(id) reported and blocked \(profile)"))
        }
    }
}

/// `swipe reports`: every report, for moderators.
struct Reports: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List every report, oldest first.")

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: FormatOptions
    @Flag(
        help: """
            The conversation each report keeps instead: the pair's last 50 messages before it, \
            one row per message.
            """)
    var messages = false

    func run() throws {
        try ExitStatus.reporting {
            let store = try database.openReading()
            let reports = try store.reports()
            guard messages else {
                try output.write(columns: ["reporter", "reported", "reason", "reported_at"], rows: reports) {
                    [.text($0.reporter), .text($0.reported), .text($0.reason), .text($0.reportedAt)]
                }
                return
            }
            var rows: [(Report, Message)] = []
            for report in reports {
                for message in try store.transcript(of: report, limit: Report.transcriptLength) {
                    rows.append((report, message))
                }
            }
            try output.write(
                columns: ["reporter", "reported", "reported_at", "seq", "sender", "text", "sent_at"], rows: rows
            ) { report, message in
                [
                    .text(report.reporter), .text(report.reported), .text(report.reportedAt), .int(message.seq),
                    .text(message.sender), .text(message.text), .text(message.sentAt),
                ]
            }
        }
    }
}

/// `swipe rules` and `swipe rules set KEY VALUE`.
struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "Print the database-wide rules, or set one.",
        discussion: """
            likes-per-day N|off       likes a viewer may make in any 24 hours (default off)
            superlikes-per-day N|off  the same for superlikes (hate is never limited)
            rewind any|last|passes|off  what undo may take back (default any)
            first-move anyone|GENDER  in a match where one is GENDER, that one writes first
            match-expiry HOURS|off    a new match's time for its first message, else it expires
            first-messages-per-day N|off  conversations a viewer may open in any 24 hours
            evidence-days N           days a report keeps its evidence, erases or not (default 90)
            (a message holds at most 2000 characters; a refusal names the rule)
            Example: swipe rules set likes-per-day 100
            """)

    @OptionGroup var database: DatabaseOptions
    @Argument(help: ArgumentHelp("set KEY VALUE, or nothing to print the rules.", valueName: "set KEY VALUE"))
    var words: [String] = []
    @OptionGroup var output: FormatOptions

    func validate() throws {
        guard words.isEmpty || (words.count == 3 && words[0] == "set") else {
            throw ValidationError("rules takes nothing, or set KEY VALUE (e.g. rules set likes-per-day 100)")
        }
    }

    func run() throws {
        try ExitStatus.reporting {
            let store = try words.isEmpty ? database.openReading() : database.openExisting()
            let rules = words.isEmpty ? try store.rules() : try setRule(store)
            try output.write(columns: ["rule", "value"], rows: rules.entries) { [.text($0.name), .text($0.value)] }
        }
    }

    /// The words a rule's value may be (besides numbers and genders), for "did you mean".
    static let valueWords = ["rewind": ["any", "last", "passes", "off"], "first-move": ["anyone"]]

    /// Sets the rule; a mistyped rule name or value is refused with the
    /// nearest one, as every mistyped word in the REPL is (issue 24).
    private func setRule(_ store: any SwipeDatabase) throws -> Rules {
        do {
            return try store.setRule(words[1], words[2])
        } catch let error as StoreError {
            guard case .invalidValue(let name, let value, _) = error else { throw error }
            let among = name == "rule" ? Rules.names : Self.valueWords[name] ?? ["off"]
            guard let near = Spelling.suggestion(for: value, among: among) else { throw error }
            let suggested = name == "rule" ? [near, words[2]] : [words[1], near]
            throw CommandError(
                input: words.joined(separator: " "),
                message: error.description + "; did you mean \"rules set " + suggested.joined(separator: " ") + "\"?")
        }
    }
}
