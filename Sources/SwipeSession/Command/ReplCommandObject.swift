import Foundation
import SwipeCore
import SwipeStore

/// A command sent as one JSON object instead of a line of words
/// (Documentation/REPL.md, "Commands as JSON objects"): `{"cmd": "say",
/// "to": "p-2", "text": "I'm free\nat 8", "tag": 7}`. JSON mode and the
/// socket take one per line or frame, so a script or a page sends any text,
/// newlines included, and never builds a command line with quoting.
///
/// Free text (`say`'s `text`, `report`'s `reason`, `me_set`'s `value`) is
/// taken as given, ends trimmed. Every other argument becomes one word of
/// the command, exactly as sent, and the words are read as a line's words
/// are (`Command.parse(words:)`): the same checks, the same refusals, with
/// no quoting or lexing between (a refusal quotes the object, not a line).
/// The answer is the line's answer plus `cmd` and the echoed `tag`.
public enum ReplCommandObject {
    /// Each `cmd` and its named arguments (`?`: may be left out).
    public static let forms: [(cmd: String, arguments: String)] = [
        ("drag", "dx, dy"), ("release", "vx?, vy?"), ("cancel", ""), ("like", "id?"), ("hate", "id?"),
        ("superlike", "id?"), ("open", "id?"), ("back", ""), ("undo", ""), ("deck", ""),
        ("history", "id?, since?, until?"),
        ("matches", "since?, until?, with_messages?"), ("reload", ""), ("physics", "name"), ("view", "name?"),
        ("prefs", "field?, value?"),
        ("likes", "since?, until?"), ("why", ""), ("block", "id?"), ("unblock", "id"), ("unmatch", "id"),
        ("report", "id, reason"), ("chat", "id"), ("say", "to, text, client_id?"), ("inbox", "since?, until?"),
        ("me", ""),
        ("me_set", "field, value"), ("me_photo_add", "source"), ("me_photo_remove", "n"),
        ("me_photo_move", "from, to"), ("me_export", "file?"), ("me_erase", "id"), ("acknowledge", ""),
        ("insights", "by?, since?, until?, all?"),
        ("moderate", "action, id?, item?, reason?, note?, days?, n?"), ("help", "topic?"),
        ("quit", ""),
    ]

    /// Whether `line` is meant as a command object (its first character is `{`).
    public static func isObject(_ line: String) -> Bool {
        line.unicodeScalars.first(where: { !$0.properties.isWhitespace }) == "{"
    }

    /// The command `json` names: its `cmd`, its `tag` (any JSON value, echoed), and the input.
    public static func parse(_ json: String) -> (
        cmd: String?, tag: JSONValue?, input: Result<Command?, CommandError>
    ) {
        let fail = { (message: String) in CommandError(input: json, message: message) }
        guard let object = try? JSONDecoder().decode([String: JSONTree].self, from: Data(json.utf8)) else {
            return (
                nil, nil,
                .failure(fail("a command object is one JSON object, e.g. " + #"{"cmd":"say","to":"p-2","text":"hi"}"#))
            )
        }
        let tag = object["tag"].map(\.value)
        guard case .string(let cmd)? = object["cmd"] else {
            return (nil, tag, .failure(fail("a command object names its command: " + expected)))
        }
        return (cmd, tag, Result { () throws(CommandError) in try input(cmd, object, fail: fail) })
    }

    package static var expected: String {
        #"{"cmd": one of "# + forms.map(\.cmd).joined(separator: ", ") + ", its arguments by name, \"tag\" optional}"
    }

    package static func input(_ cmd: String, _ object: [String: JSONTree], fail: (String) -> CommandError)
        throws(CommandError) -> Command?
    {
        guard let form = forms.first(where: { $0.cmd == cmd }) else {
            throw fail("unknown cmd \"\(cmd)\": \(expected)")
        }
        func usage() -> String {
            "\(cmd) takes " + (form.arguments.isEmpty ? "no arguments" : form.arguments) + ", e.g. "
                + example(cmd)
        }
        func text(_ key: String) throws(CommandError) -> String? {
            switch object[key] {
            case nil, .null?: return nil
            case .string(let string)?: return string
            case .number(let number)?:
                return number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
            default: break
            }
            throw fail("\(cmd): \"\(key)\" must be a string or a number; \(usage())")
        }
        func required(_ key: String) throws(CommandError) -> String {
            guard let value = try text(key) else { throw fail("\(cmd) needs \"\(key)\": \(usage())") }
            return value
        }
        let known = Set(
            ["cmd", "tag"]
                + form.arguments.split(separator: ",").map {
                    $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "?", with: "")
                })
        if let stray = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw fail("\(cmd) takes no \"\(stray)\": \(usage())")
        }
        if ["history", "matches", "likes", "inbox"].contains(cmd), object["since"] != nil || object["until"] != nil {
            var rest = object
            rest["since"] = nil
            rest["until"] = nil
            switch TimeWindow.parse(since: try text("since"), until: try text("until"), flag: { "\"" + $0 + "\"" }) {
            case .success(let window):
                guard let inner = try input(cmd, rest, fail: fail) else { return nil }
                return .within(window, inner)
            case .failure(let problem): throw fail("\(cmd): \(problem)")
            }
        }
        if cmd == "matches", let flag = object["with_messages"] {
            switch flag {
            case .bool(true): return .matchesWithMessages
            case .bool(false), .null:
                var rest = object
                rest["with_messages"] = nil
                return try input(cmd, rest, fail: fail)
            default: throw fail("matches: \"with_messages\" is true or false; \(usage())")
            }
        }
        switch cmd {
        case "say":
            let to = try required("to"), body = try required("text").trimmingWhitespace
            guard !body.isEmpty else { throw fail("say needs a \"text\" that is not blank: \(usage())") }
            return .conversation(.say(to, text: body, clientID: try text("client_id")))
        case "report":
            let id = try required("id"), reason = try required("reason").trimmingWhitespace
            guard !reason.isEmpty else { throw fail("report needs a \"reason\" that is not blank: \(usage())") }
            return .discovery(.report(id, reason: reason))
        case "moderate":
            return .moderate(try moderation(try required("action").lowercased(), text: text, fail: fail))
        case "insights":
            var input = InsightsInput(since: try text("since"), until: try text("until"))
            if let by = try text("by") {
                guard let period = InsightPeriod(rawValue: by.lowercased()) else {
                    throw fail("insights: \"by\" is day, week or month (got \"\(by)\")")
                }
                input.by = period
            }
            switch object["all"] {
            case nil, .null?, .bool(false)?: break
            case .bool(true)?: input.all = true
            default: throw fail("insights: \"all\" is true or false; \(usage())")
            }
            try Command.checkRange(input, fail: fail, flag: { "\"" + $0 + "\"" })
            return .insights(input)
        case "me_set":
            let name = try required("field")
            guard let field = MeField.spellings[name.lowercased()] else {
                throw fail(
                    "me_set knows " + MeField.allCases.map(\.rawValue).joined(separator: ", ") + " (got \"\(name)\")")
            }
            return .me(.set(field, try required("value").trimmingWhitespace))
        default:
            // The words the REPL would read, each argument one word as sent.
            var words: [String] = cmd.split(separator: "_").map(String.init)
            for argument in form.arguments.split(separator: ",") {
                let key = argument.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "?", with: "")
                guard let value = try text(key) else {
                    if !argument.hasSuffix("?") { throw fail("\(cmd) needs \"\(key)\": \(usage())") }
                    continue
                }
                // A place is two numbers (`prefs location 38.7 -9.1`): its words stay words.
                words += cmd == "prefs" && key == "value" ? value.split(separator: " ").map(String.init) : [value]
            }
            return try Command.parse(words: words, fail: fail)
        }
    }

    /// A `moderate` object's command: its `action` and the arguments that
    /// action takes (Documentation/Moderation.md); free text as given, trimmed.
    private static func moderation(
        _ action: String, text: (String) throws(CommandError) -> String?, fail: (String) -> CommandError
    ) throws(CommandError) -> ModerationCommand {
        func need(_ key: String) throws(CommandError) -> String {
            guard let value = try text(key)?.trimmingWhitespace, !value.isEmpty else {
                throw fail("moderate \(action) needs \"\(key)\", e.g. \(example("moderate"))")
            }
            return value
        }
        func number(_ key: String) throws(CommandError) -> Int? {
            guard let value = try text(key) else { return nil }
            guard let number = Int(value) else { throw fail("moderate \(action): \"\(key)\" must be a whole number") }
            return number
        }
        switch action {
        case "queue": return .queue
        case "log": return .log
        case "show": return .show(item: try need("item"))
        case "ban": return .ban(id: try need("id"), reason: try need("reason"), days: try number("days"))
        case "unban": return .unban(id: try need("id"))
        case "warn": return .warn(id: try need("id"), reason: try need("reason"))
        case "remove-photo":
            guard let position = try number("n") else {
                throw fail("moderate remove-photo needs \"n\", the photo's position")
            }
            return .removePhoto(id: try need("id"), position: position, reason: try need("reason"))
        case "resolve": return .resolve(item: try need("item"), note: try need("note"))
        case "grant": return .grant(id: try need("id"))
        case "revoke": return .revoke(id: try need("id"))
        default:
            throw fail(
                "moderate's \"action\" is one of \(ModerationCommand.actions.joined(separator: ", ")) (got \"\(action)\")"
            )
        }
    }

    package static func example(_ cmd: String) -> String {
        switch cmd {
        case "drag": #"{"cmd":"drag","dx":60,"dy":-10}"#
        case "say": #"{"cmd":"say","to":"p-2","text":"I'm free at 8"}"#
        case "report": #"{"cmd":"report","id":"p-2","reason":"rude messages"}"#
        case "moderate": #"{"cmd":"moderate","action":"ban","id":"p-2","reason":"spam","days":7}"#
        case "me_set": #"{"cmd":"me_set","field":"bio","value":"Climber, cook"}"#
        case "prefs": #"{"cmd":"prefs","field":"age","value":"25-35"}"#
        case "insights": #"{"cmd":"insights","by":"week","since":"2026-11-01"}"#
        default: #"{"cmd":"\#(cmd)"}"#
        }
    }
}

/// A JSON value as decoded, for a command object's arguments and its
/// `tag` (echoed as it came).
package enum JSONTree: Decodable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONTree])
    case object([String: JSONTree])

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let items = try? container.decode([JSONTree].self) {
            self = .array(items)
        } else {
            self = .object(try container.decode([String: JSONTree].self))
        }
    }

    package var value: JSONValue {
        switch self {
        case .null: .null
        case .bool(let flag): .bool(flag)
        case .number(let number): .number(number)
        case .string(let text): .string(text)
        case .array(let items): .array(items.map(\.value))
        case .object(let members): .object(members.keys.sorted().map { ($0, members[$0]!.value) })
        }
    }
}
