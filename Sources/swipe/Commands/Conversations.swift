import ArgumentParser
import Foundation
import SwipeCLI
import SwipeCommandLine
import SwipeSession
import SwipeStore

/// `swipe messages --as V ID`: the viewer's conversation with a match,
/// oldest first; reading marks what the viewer received as read.
struct Messages: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the conversation with a match, oldest first (marks it read).")

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var viewer: ViewerOptions
    @Argument(help: ArgumentHelp("The matched profile.", valueName: "PROFILE_ID")) var profile: String
    @Option(help: "Only the last N messages.") var last: Int?
    @OptionGroup var output: FormatOptions

    func run() throws {
        try ExitStatus.reporting {
            if let last, last < 0 { throw ValidationError("--last takes a count of 0 or more, not \(last)") }
            let store = try database.openExisting()
            let id = try viewer.resolve(in: store)
            let messages = try store.messages(MessageQuery(viewer: id, profile: profile, last: last))
            try output.write(columns: StoreRecords.messageColumns, rows: messages, cells: StoreRecords.cells)
        }
    }
}

/// `swipe send --as V ID TEXT`: one message, stored exactly once by its
/// client id (`--client-id`; a new one by default): running the same
/// command again with the same id after a failure never doubles it.
struct Send: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Send a message to a match.")

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var viewer: ViewerOptions
    @Argument(help: ArgumentHelp("The matched profile.", valueName: "PROFILE_ID")) var profile: String
    @Argument(help: ArgumentHelp("The message (words are joined by spaces).", valueName: "TEXT")) var text: [String]
    @Option(
        help: ArgumentHelp(
            "The send's id: a retry with the same id returns the stored message instead of sending again.",
            valueName: "ID"))
    var clientID: String?
    @OptionGroup var output: FormatOptions

    func run() throws {
        try ExitStatus.reporting {
            let store = try database.openExisting()
            let id = try viewer.resolve(in: store)
            let sent = try store.send(
                MessageSend(
                    viewer: id, profile: profile, text: text.joined(separator: " "),
                    clientID: clientID ?? UUID().uuidString))
            try output.write(columns: StoreRecords.messageColumns + ["retry"], rows: [sent]) {
                StoreRecords.cells($0.message) + [.text($0.isRetry ? "true" : "false")]
            }
        }
    }
}

/// `swipe inbox --as V`: the viewer's matches with their last message and
/// unread count, newest activity first.
struct Inbox: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the viewer's conversations: last message, unread count, newest first.")

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var viewer: ViewerOptions
    @OptionGroup var range: TimeRangeOptions
    @OptionGroup var output: FormatOptions

    func run() throws {
        try ExitStatus.reporting {
            let store = try database.openReading()
            let id = try viewer.resolve(in: store)
            // A conversation is in the range by its latest activity: its last message, else its match.
            let rows = try store.inbox(viewer: id).filter { range.contains($0.last?.sentAt ?? $0.matchedAt) }
            try output.write(columns: StoreRecords.inboxColumns, rows: rows, cells: StoreRecords.cells)
        }
    }
}
