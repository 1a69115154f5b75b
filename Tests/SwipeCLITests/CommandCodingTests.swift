import Foundation
import SwipeCore
import SwipeStore
import SwipeTestSupport
import Testing

@testable import SwipeSession

/// A command encodes as its command object and decodes back to itself
/// (`Command: Codable`), for random commands of every kind with hostile
/// texts in their free text; each encoded object is valid against the
/// published schema (Documentation/command.schema.json) and reads back the
/// same through JSON mode's path (`ReplCommandObject.parse`) too.
@Suite struct CommandCodingTests {
    static let ids = ["m-1", "p-024", "Zoé", "a b", "o'neil", #"q"uote"#, "x\\y"]
    /// Free text as the decoder keeps it: ends trimmed.
    static let texts = HostileTexts.all.map(\.trimmingWhitespace)

    struct Maker {
        var random: SplitMix64

        mutating func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
        mutating func maybe<T>(_ value: T) -> T? { random.next() % 2 == 0 ? value : nil }
        mutating func id() -> String { pick(CommandCodingTests.ids) }
        mutating func text() -> String { pick(CommandCodingTests.texts) }
        mutating func number() -> Double { Double(Int(random.next() % 2001) - 1000) / 8 }
        mutating func day() -> String { String(format: "2026-11-%02d", Int(random.next() % 28) + 1) }

        /// A window with at least one bound (one with none is the list itself, no `.within`).
        mutating func window() -> TimeWindow {
            let first = day(), second = day()
            let (since, until) = first <= second ? (first, second) : (second, first)
            let bounds: (String?, String?) = pick([(since, nil), (nil, until), (since, until)])
            guard case .success(let window) = TimeWindow.parse(since: bounds.0, until: bounds.1) else {
                preconditionFailure("a window in time order is a window")
            }
            return window
        }

        mutating func moderation() -> ModerationCommand {
            switch random.next() % 10 {
            case 0: .queue
            case 1: .log
            case 2: .show(item: "r-\(random.next() % 99)")
            case 3: .ban(id: id(), reason: text(), days: maybe(Int(random.next() % 30) + 1))
            case 4: .unban(id: id())
            case 5: .warn(id: id(), reason: text())
            case 6: .removePhoto(id: id(), position: Int(random.next() % 9) + 1, reason: text())
            case 7: .resolve(item: "r-\(random.next() % 99)", note: text())
            case 8: .grant(id: id())
            default: .revoke(id: id())
            }
        }

        mutating func command() -> Command {
            switch random.next() % 34 {
            case 0: .event(.drag(dx: number(), dy: number()))
            case 1: .event(.release(vx: number(), vy: number()))
            case 2: .event(.cancel)
            case 3: .event(.button(pick(Decision.allCases)))
            case 4: .event(.open)
            case 5: .event(.close)
            case 6: .event(.undo)
            case 7: .event(.reload)
            case 8: .event(.setPhysics(pick(PhysicsKind.allCases)))
            case 9: .deck
            case 10: .history(profile: maybe(id()))
            case 11: .matches
            case 12: .matchesWithMessages
            case 13: .view(maybe(pick(ReplView.allCases)))
            case 14: .help(topic: maybe(pick(ReplVerb.allCases)))
            case 15: .quit
            case 16:
                .discovery(
                    .prefs(
                        pick([
                            nil, .age("25-35"), .seeking("f;m"), .seeking("any"), .km("50"), .km("off"),
                            .location("38.7 -9.1"), .location("none"),
                        ])))
            case 17: .discovery(pick([.likes, .why]))
            case 18: .discovery(.block(maybe(id())))
            case 19: .discovery(pick([.unblock(id()), .unmatch(id())]))
            case 20: .discovery(.report(id(), reason: text()))
            case 21: .conversation(.chat(id()))
            case 22: .conversation(.say(id(), text: text(), clientID: maybe("c-\(random.next() % 1000)")))
            case 23: .conversation(.inbox)
            case 24: .listed(.open(id()))
            case 25: .listed(.decide(id(), pick(Decision.allCases)))
            case 26: .me(.show)
            case 27: .me(.set(pick(MeField.allCases), text()))
            case 28: .me(pick([.erase(confirm: id()), .export(file: maybe("out dir/me.json"))]))
            case 29:
                .me(
                    .photo(
                        pick([
                            .add("https://example.com/a b.jpg"), .remove(Int(random.next() % 9) + 1),
                            .move(from: Int(random.next() % 9) + 1, to: Int(random.next() % 9) + 1),
                        ])))
            case 30: .moderate(moderation())
            case 31: .acknowledge
            case 32:
                .insights(
                    InsightsInput(
                        by: pick(InsightPeriod.allCases), since: maybe("2026-11-01"), until: maybe("2026-11-20"),
                        all: random.next() % 2 == 0))
            default:
                .within(
                    window(),
                    pick([.history(profile: maybe(id())), .matches, .discovery(.likes), .conversation(.inbox)]))
            }
        }
    }

    @Test(arguments: [1, 2, 3] as [UInt64]) func everyCommandDecodesToItselfFromItsObject(_ seed: UInt64) throws {
        var maker = Maker(random: SplitMix64(seed: seed))
        let branches = try CommandSchemaTests.branches()
        var kinds = Set<String>()
        for _ in 0..<400 {
            let command = maker.command()
            let data = try JSONEncoder().encode(command)
            #expect(try JSONDecoder().decode(Command.self, from: data) == command, "\(command)")
            let line = String(decoding: data, as: UTF8.self)
            #expect(try ReplCommandObject.parse(line).input.get() == command, "\(line)")
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(CommandSchemaTests.isValid(object, branches), "not valid against the schema: \(line)")
            kinds.insert(object["cmd"] as? String ?? "")
        }
        // 400 draws reach every command the objects have (a generator that
        // missed some would pass on what it never tried).
        #expect(
            kinds == Set(ReplCommandObject.forms.map(\.cmd)),
            "\(Set(ReplCommandObject.forms.map(\.cmd)).subtracting(kinds))")
    }

    /// Worked by hand: the object an app sends for a message, byte for byte.
    @Test func aMessageIsTheObjectTheSocketTakes() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(Command.conversation(.say("p-2", text: "I'm free", clientID: "c-1")))
        #expect(
            String(decoding: data, as: UTF8.self) == #"{"client_id":"c-1","cmd":"say","text":"I'm free","to":"p-2"}"#)
    }

    /// What is not a command is refused with the expected form, as a typed line is.
    @Test func aWrongObjectIsRefusedNamingTheForm() {
        for json in [#"{"cmd":"say","to":"p-2"}"#, #"{"cmd":"fly"}"#, #"{"to":"p-2"}"#, #"[1]"#] {
            #expect(throws: CommandError.self, "\(json)") {
                try JSONDecoder().decode(Command.self, from: Data(json.utf8))
            }
        }
        do {
            _ = try JSONDecoder().decode(Command.self, from: Data(#"{"cmd":"say","to":"p-2"}"#.utf8))
        } catch let error as CommandError {
            #expect(error.message.contains(#"say needs "text""#), "\(error.message)")
        } catch {
            Issue.record("not a CommandError: \(error)")
        }
    }

    /// The deck's own events are no one's command: they do not encode.
    @Test func theDecksOwnEventsDoNotEncode() {
        #expect(throws: EncodingError.self) { try JSONEncoder().encode(Command.event(.animationFinished)) }
        #expect(throws: EncodingError.self) { try JSONEncoder().encode(Command.event(.withdraw("m-1"))) }
    }
}
