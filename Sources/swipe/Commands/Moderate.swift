import ArgumentParser
import Foundation
import SwipeCLI
import SwipeCommandLine
import SwipeSession
import SwipeStore

/// `swipe moderate …` (Documentation/Moderation.md): the moderators' tools
/// on the command line. It acts as the operator (whoever can open the
/// database), logged as `operator`, unless `--as MOD` names a moderator.
struct Moderate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Moderate: the queue of reports and flags, suspensions, warnings and the log.",
        discussion: """
            Run as the operator (whoever can open the database) unless --as names a moderator. \
            Every action is written to the append-only log (swipe moderate log).
            Examples:
              swipe moderate grant p-007      make p-007 a moderator
              swipe moderate queue            open reports and flags, oldest first
              swipe moderate show 12          report 12 with its evidence
              swipe moderate ban p-024 --reason "spam" --days 7
              swipe moderate warn p-031 --reason "be kind"
              swipe moderate resolve 12 --note "warned"
              swipe moderate log --format csv > log.csv
            """,
        subcommands: [
            Grant.self, Revoke.self, Queue.self, Show.self, Ban.self, Unban.self, Warn.self, RemovePhoto.self,
            Resolve.self, Log.self,
        ])

    /// `--as MOD`: who acts; the operator when absent.
    struct Acting: ParsableArguments {
        @Option(
            name: .customLong("as"),
            help: ArgumentHelp("Act as this moderator (default: the operator).", valueName: "MODERATOR_ID"))
        var moderator: String?

        /// Runs an action as this moderator (the operator when none) through
        /// the store's one `run`, which the REPL and the socket use too, and
        /// prints what it did.
        func perform(_ command: ModerationCommand, on database: DatabaseOptions) throws {
            guard case .done(let words) = try database.openExisting().run(command, by: moderator) else { return }
            print(TerminalText.sanitized(words))
        }
    }

    struct Reason: ParsableArguments {
        @Option(help: ArgumentHelp("Why, in words: shown to the person and kept in the log.", valueName: "TEXT"))
        var reason: String
    }

    struct Grant: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Give a profile the moderator role.")
        @OptionGroup var database: DatabaseOptions
        @OptionGroup var acting: Acting
        @Argument(help: ArgumentHelp("The profile.", valueName: "PROFILE_ID")) var profile: String

        func run() throws {
            try ExitStatus.reporting {
                try acting.perform(.grant(id: profile), on: database)
            }
        }
    }

    struct Revoke: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Take the moderator role from a profile.")
        @OptionGroup var database: DatabaseOptions
        @OptionGroup var acting: Acting
        @Argument(help: ArgumentHelp("The moderator.", valueName: "PROFILE_ID")) var profile: String

        func run() throws {
            try ExitStatus.reporting {
                try acting.perform(.revoke(id: profile), on: database)
            }
        }
    }

    struct Queue: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Open reports and flags, oldest first, with each person's open reports and flags.")
        @OptionGroup var database: DatabaseOptions
        @OptionGroup var acting: Acting
        @OptionGroup var output: FormatOptions

        func run() throws {
            try ExitStatus.reporting {
                let queue = try database.openReading().moderationQueue(by: acting.moderator)
                try output.write(
                    columns: ["item", "kind", "profile", "reporter", "reason", "at", "reports", "flags", "suspended"],
                    rows: queue
                ) {
                    [
                        .text($0.item), .text($0.kind), .text($0.profile), $0.reporter.map(Cell.text) ?? .null,
                        .text($0.reason), .text($0.at), .int($0.reports), .list($0.flags),
                        .text($0.suspended ? "yes" : "no"),
                    ]
                }
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "One report or flag with its evidence: the profile as reported and the last 50 messages.")
        @OptionGroup var database: DatabaseOptions
        @OptionGroup var acting: Acting
        @Argument(help: ArgumentHelp("A report's number, or flag-N, as the queue lists it.", valueName: "ITEM"))
        var item: String

        func run() throws {
            try ExitStatus.reporting {
                let shown = try database.openReading().queueEvidence(item, by: acting.moderator)
                print(ModerationText.evidence(shown), terminator: "")
            }
        }
    }

    struct Ban: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Suspend a profile for some days or for good: links void, sockets closed, never dealt.")
        @OptionGroup var database: DatabaseOptions
        @OptionGroup var acting: Acting
        @Argument(help: ArgumentHelp("The profile.", valueName: "PROFILE_ID")) var profile: String
        @OptionGroup var reason: Reason
        @Option(help: ArgumentHelp("Days the suspension lasts (1…36500); for good when absent.", valueName: "N"))
        var days: Int?

        func run() throws {
            try ExitStatus.reporting {
                try acting.perform(.ban(id: profile, reason: reason.reason, days: days), on: database)
            }
        }
    }

    struct Unban: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Lift a suspension (earlier links stay void: the person signs in anew).")
        @OptionGroup var database: DatabaseOptions
        @OptionGroup var acting: Acting
        @Argument(help: ArgumentHelp("The profile.", valueName: "PROFILE_ID")) var profile: String

        func run() throws {
            try ExitStatus.reporting {
                try acting.perform(.unban(id: profile), on: database)
            }
        }
    }

    struct Warn: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Warn a profile: shown at their next session until they acknowledge it.")
        @OptionGroup var database: DatabaseOptions
        @OptionGroup var acting: Acting
        @Argument(help: ArgumentHelp("The profile.", valueName: "PROFILE_ID")) var profile: String
        @OptionGroup var reason: Reason

        func run() throws {
            try ExitStatus.reporting {
                try acting.perform(.warn(id: profile, reason: reason.reason), on: database)
            }
        }
    }

    struct RemovePhoto: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove-photo", abstract: "Remove one photo of a profile (1 is the first).")
        @OptionGroup var database: DatabaseOptions
        @OptionGroup var acting: Acting
        @Argument(help: ArgumentHelp("The profile.", valueName: "PROFILE_ID")) var profile: String
        @Argument(help: ArgumentHelp("The photo's position, 1 for the first.", valueName: "N")) var position: Int
        @OptionGroup var reason: Reason

        func run() throws {
            try ExitStatus.reporting {
                try acting.perform(
                    .removePhoto(id: profile, position: position, reason: reason.reason), on: database)
            }
        }
    }

    struct Resolve: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Resolve a report or flag: it leaves the queue.")
        @OptionGroup var database: DatabaseOptions
        @OptionGroup var acting: Acting
        @Argument(help: ArgumentHelp("A report's number, or flag-N.", valueName: "ITEM")) var item: String
        @Option(help: ArgumentHelp("What was done, for the log.", valueName: "TEXT")) var note: String

        func run() throws {
            try ExitStatus.reporting {
                try acting.perform(.resolve(item: item, note: note), on: database)
            }
        }
    }

    struct Log: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Every moderator action, oldest first (append-only): time, moderator, action, target, reason.")
        @OptionGroup var database: DatabaseOptions
        @OptionGroup var output: FormatOptions

        func run() throws {
            try ExitStatus.reporting {
                let log = try database.openReading().moderationLog()
                try output.write(columns: ["seq", "at", "moderator", "action", "target", "reason"], rows: log) {
                    [
                        .int($0.seq), .text($0.at), .text($0.moderator), .text($0.action), .text($0.target),
                        .text($0.reason),
                    ]
                }
            }
        }
    }
}
