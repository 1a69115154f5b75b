import Foundation
import SwipeCore
import SwipeStore

/// A command is `Codable` as its command object (`ReplCommandObject`):
/// `{"cmd":"say","to":"p-2","text":"I'm free"}`. What an app embedding
/// swipe (a bot, a test, an iOS client) builds as a value, it sends as the
/// socket's frame or JSON mode's line with `JSONEncoder`, and what arrives
/// as one is read with `JSONDecoder`, with the same checks and the same
/// refusals (`CommandError`, naming the expected form) as a typed line.
///
/// Decoding what was encoded gives the same command back, for every
/// command (`CommandCodingTests`, over random commands and hostile texts).
/// The deck's own events that no one types (`withdraw`,
/// `animationFinished`) have no command object and do not encode.
extension Command: Codable {
    public init(from decoder: any Decoder) throws {
        guard case .object(let object) = try JSONTree(from: decoder), case .string(let cmd)? = object["cmd"] else {
            throw CommandError(
                input: "", message: "a command object names its command: " + ReplCommandObject.expected)
        }
        // The object as JSON text, for a refusal to quote: written only when refused.
        let fail = { (message: String) in
            CommandError(input: JSONTree.object(object).value.serialized, message: message)
        }
        guard let input = try ReplCommandObject.input(cmd, object.filter { $0.key != "tag" }, fail: fail) else {
            throw fail("a command object names its command: " + ReplCommandObject.expected)
        }
        self = input
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ArgumentKey.self)
        guard let (cmd, arguments) = commandObject else {
            throw EncodingError.invalidValue(
                self, .init(codingPath: encoder.codingPath, debugDescription: "\(self) is the deck's, not a command"))
        }
        try container.encode(cmd, forKey: ArgumentKey("cmd"))
        for (key, value) in arguments {
            switch value {
            case .text(let text): try container.encode(text, forKey: ArgumentKey(key))
            case .number(let number): try container.encode(number, forKey: ArgumentKey(key))
            case .whole(let number): try container.encode(number, forKey: ArgumentKey(key))
            case .flag(let flag): try container.encode(flag, forKey: ArgumentKey(key))
            }
        }
    }

    /// An argument of a command object, as JSON types it.
    package enum Argument: Hashable, Sendable {
        case text(String)
        case number(Double)
        case whole(Int)
        case flag(Bool)
    }

    /// The command object's `cmd` and named arguments; nil for the deck's
    /// own events, which no one sends.
    package var commandObject: (cmd: String, arguments: [(String, Argument)])? {
        func text(_ pairs: (String, String?)...) -> [(String, Argument)] {
            pairs.compactMap { key, value in value.map { (key, .text($0)) } }
        }
        switch self {
        case .event(let event):
            switch event {
            case .drag(let dx, let dy): return ("drag", [("dx", .number(dx)), ("dy", .number(dy))])
            case .release(let vx, let vy): return ("release", [("vx", .number(vx)), ("vy", .number(vy))])
            case .cancel: return ("cancel", [])
            case .button(let decision): return (decision.rawValue, [])
            case .open: return ("open", [])
            case .close: return ("back", [])
            case .undo: return ("undo", [])
            case .reload: return ("reload", [])
            case .setPhysics(let kind): return ("physics", text(("name", kind.rawValue)))
            case .withdraw, .animationFinished: return nil
            }
        case .deck: return ("deck", [])
        case .history(let profile): return ("history", text(("id", profile)))
        case .matches: return ("matches", [])
        case .matchesWithMessages: return ("matches", [("with_messages", .flag(true))])
        case .view(let view): return ("view", text(("name", view?.rawValue)))
        case .help(let topic): return ("help", text(("topic", topic?.rawValue)))
        case .quit: return ("quit", [])
        case .discovery(let discovery):
            switch discovery {
            case .prefs(nil): return ("prefs", [])
            case .prefs(.age(let value)?): return ("prefs", text(("field", "age"), ("value", value)))
            case .prefs(.seeking(let value)?): return ("prefs", text(("field", "seeking"), ("value", value)))
            case .prefs(.km(let value)?): return ("prefs", text(("field", "km"), ("value", value)))
            case .prefs(.location(let value)?): return ("prefs", text(("field", "location"), ("value", value)))
            case .likes: return ("likes", [])
            case .why: return ("why", [])
            case .block(let id): return ("block", text(("id", id)))
            case .unblock(let id): return ("unblock", text(("id", id)))
            case .unmatch(let id): return ("unmatch", text(("id", id)))
            case .report(let id, let reason): return ("report", text(("id", id), ("reason", reason)))
            }
        case .conversation(let conversation):
            switch conversation {
            case .chat(let id): return ("chat", text(("id", id)))
            case .say(let to, let body, let clientID):
                return ("say", text(("to", to), ("text", body), ("client_id", clientID)))
            case .inbox: return ("inbox", [])
            }
        case .listed(.open(let id)): return ("open", text(("id", id)))
        case .listed(.decide(let id, let decision)): return (decision.rawValue, text(("id", id)))
        case .me(let me):
            switch me {
            case .show: return ("me", [])
            case .set(let field, let value): return ("me_set", text(("field", field.rawValue), ("value", value)))
            case .erase(let confirm): return ("me_erase", text(("id", confirm)))
            case .photo(.add(let source)): return ("me_photo_add", text(("source", source)))
            case .photo(.remove(let n)): return ("me_photo_remove", [("n", .whole(n))])
            case .photo(.move(let from, let to)):
                return ("me_photo_move", [("from", .whole(from)), ("to", .whole(to))])
            case .export(let file): return ("me_export", text(("file", file)))
            }
        case .moderate(let command):
            var arguments: [(String, Argument)] = [("action", .text(command.action))]
            switch command {
            case .queue, .log: break
            case .show(let item): arguments += text(("item", item))
            case .ban(let id, let reason, let days):
                arguments += text(("id", id), ("reason", reason)) + (days.map { [("days", .whole($0))] } ?? [])
            case .unban(let id), .grant(let id), .revoke(let id): arguments += text(("id", id))
            case .warn(let id, let reason): arguments += text(("id", id), ("reason", reason))
            case .removePhoto(let id, let position, let reason):
                arguments += text(("id", id), ("reason", reason)) + [("n", .whole(position))]
            case .resolve(let item, let note): arguments += text(("item", item), ("note", note))
            }
            return ("moderate", arguments)
        case .acknowledge: return ("acknowledge", [])
        case .insights(let input):
            return (
                "insights",
                text(("by", input.by.rawValue), ("since", input.since), ("until", input.until))
                    + (input.all ? [("all", .flag(true))] : [])
            )
        case .within(let window, let inner):
            guard let (cmd, arguments) = inner.commandObject else { return nil }
            return (cmd, arguments + text(("since", window.since), ("until", window.until)))
        }
    }
}

/// A command object's key.
private struct ArgumentKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
