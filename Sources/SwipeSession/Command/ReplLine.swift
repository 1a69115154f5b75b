import SwipeCore
import SwipeStore

/// One input line, parsed once: the session runs it, and a driver (the
/// server) can ask what it is before running it, from the parsed command
/// rather than from the text.
public struct ReplLine: Sendable {
    /// The line as typed, trimmed: what answers quote as `command`.
    public let text: String
    /// The command, nil for a blank line or a `#` comment, or why the line
    /// is not one.
    package let parsed: Result<Command?, CommandError>
    /// Whether the line's bytes were not UTF-8: refused whole, in a chat
    /// too, so nothing is stored with U+FFFD where a person's bytes were.
    package let isUndecodable: Bool
    /// A command object's `cmd` (`ReplCommandObject`), nil for a line of words.
    public let cmd: String?
    /// A command object's `tag`, echoed in its answer.
    public let tag: JSONValue?

    public init(_ line: String) {
        let text = line.trimmingWhitespace
        self.text = text
        isUndecodable = false
        if ReplCommandObject.isObject(text) {
            let object = ReplCommandObject.parse(text)
            (cmd, tag, parsed) = (object.cmd, object.tag, object.input)
        } else {
            (cmd, tag) = (nil, nil)
            parsed = Result { () throws(CommandError) in try Command.parse(text) }
        }
    }

    /// What a command object's answer adds to §6's: `cmd` and the echoed `tag`.
    package var objectMembers: [(String, JSONValue)] {
        (cmd.map { [("cmd", JSONValue.string($0))] } ?? []) + (tag.map { [("tag", $0)] } ?? [])
    }

    /// A line as read, as bytes: the line when they are UTF-8, else a line
    /// refused with where they stop being it (issue 36: `me set bio` stored
    /// U+FFFD for bytes the importer refuses).
    public init(bytes: [UInt8]) {
        guard let offset = TextLimits.firstInvalidUTF8(bytes) else {
            self.init(String(decoding: bytes, as: UTF8.self))
            return
        }
        let text = String(decoding: bytes, as: UTF8.self).trimmingWhitespace
        let hex = String(bytes[offset], radix: 16, uppercase: true)
        let byte = (hex.count == 1 ? "0x0" : "0x") + hex
        self.init(
            text: text,
            refused: CommandError(
                input: text,
                message: "the line is not valid UTF-8 (byte \(byte) at byte \(offset + 1)); "
                    + "nothing was done: send text as UTF-8"))
    }

    private init(text: String, refused: CommandError) {
        self.text = text
        parsed = .failure(refused)
        isUndecodable = true
        (cmd, tag) = (nil, nil)
    }

    /// The command, when the line is one.
    public var input: Command? {
        if case .success(let input) = parsed { input } else { nil }
    }

    /// The command's verb for counting (`/metrics`): the first word of a
    /// command, `invalid` for a line that is not one, `blank` for none.
    /// Always a word of the REPL's own, never text a person typed.
    public var verb: String {
        switch parsed {
        case .failure: "invalid"
        case .success(nil): "blank"
        case .success: cmd ?? String(text.prefix { !$0.isWhitespace }).lowercased()
        }
    }

    /// Whether running the line never reaches the store: a `drag` (pure deck
    /// arithmetic, about 40 µs), what only shows the deck or the help, and a
    /// line that does not parse or holds no command.
    public var touchesNoStore: Bool {
        switch parsed {
        case .failure, .success(nil), .success(.event(.drag)?), .success(.deck?), .success(.help?), .success(.view?):
            true
        default:
            false
        }
    }
}
