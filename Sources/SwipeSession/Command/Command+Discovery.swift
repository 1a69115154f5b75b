/// The REPL's discovery commands (README "Discovery"), parsed. Values are
/// kept as typed: the session checks them (`PreferencesChange`), so this
/// parser needs nothing but SwipeCore and is fuzzed with the rest (fuzz/run.sh).
public enum DiscoveryInput: Hashable, Sendable {
    /// `prefs` shows the viewer's preferences (nil); `prefs age 25-35`,
    /// `prefs seeking f`, `prefs km 50|off`, `prefs location LAT LON|none` change one.
    case prefs(PrefsSetting?)
    /// Who likes the viewer and is not yet decided.
    case likes
    /// Why the top card was dealt (README "Ranking").
    case why
    /// Block this profile; nil: the one on the open detail page.
    case block(String?)
    case unblock(String)
    case unmatch(String)
    case report(String, reason: String)
}

/// One preference as typed after `prefs`.
public enum PrefsSetting: Hashable, Sendable {
    case age(String)
    case seeking(String)
    case km(String)
    case location(String)
}

extension Command {
    /// Parses the arguments of a discovery verb; `fail` words the refusal.
    package static func parseDiscovery(
        _ verb: ReplVerb, _ arguments: [String], fail: (String) -> CommandError
    ) throws(CommandError) -> Command {
        func oneID(_ example: String) throws(CommandError) -> String {
            guard arguments.count == 1 else {
                throw fail("\(verb.rawValue) takes one profile id (got \(quoted(arguments))), e.g. \(example)")
            }
            return arguments[0]
        }
        switch verb {
        case .likes:
            guard arguments.isEmpty else {
                throw fail("likes takes no arguments (got \(quoted(arguments))), e.g. likes")
            }
            return .discovery(.likes)
        case .why:
            guard arguments.isEmpty else { throw fail("why takes no arguments (got \(quoted(arguments))), e.g. why") }
            return .discovery(.why)
        case .block:
            guard arguments.count <= 1 else {
                throw fail(
                    "block takes at most one profile id (got \(quoted(arguments))): block m-3, or block on a detail page"
                )
            }
            return .discovery(.block(arguments.first))
        case .unblock: return .discovery(.unblock(try oneID("unblock m-3")))
        case .unmatch: return .discovery(.unmatch(try oneID("unmatch m-3")))
        case .report:
            guard arguments.count >= 2 else {
                throw fail(
                    "report takes a profile id and a reason (got \(quoted(arguments))), e.g. report m-3 rude messages")
            }
            return .discovery(.report(arguments[0], reason: arguments.dropFirst().joined(separator: " ")))
        case .prefs:
            return .discovery(.prefs(try parsePrefs(arguments, fail: fail)))
        default:
            throw fail("\(verb.rawValue) is not a discovery command")
        }
    }

    private static func parsePrefs(
        _ arguments: [String], fail: (String) -> CommandError
    ) throws(CommandError) -> PrefsSetting? {
        guard let field = arguments.first?.lowercased() else { return nil }
        let rest = Array(arguments.dropFirst())
        switch field {
        case "age", "ages":
            guard rest.count == 1 else {
                throw fail("prefs age takes MIN-MAX (got \(quoted(rest))), e.g. prefs age 25-35")
            }
            return .age(rest[0])
        case "seeking", "seek":
            guard !rest.isEmpty else {
                throw fail("prefs seeking takes genders separated by ; or any (got nothing), e.g. prefs seeking f;m")
            }
            return .seeking(rest.joined(separator: ";"))
        case "km", "max-km", "distance":
            guard rest.count == 1 else {
                throw fail("prefs km takes a number or off (got \(quoted(rest))), e.g. prefs km 50")
            }
            return .km(rest[0])
        case "location", "at":
            guard (1...2).contains(rest.count) else {
                throw fail(
                    "prefs location takes LAT LON or none (got \(quoted(rest))), e.g. prefs location 52.52 13.40")
            }
            return .location(rest.joined(separator: " "))
        default:
            let hint = didYouMean([field], among: ["age", "seeking", "km", "location"], verb: "prefs")
            throw fail(
                "prefs knows age, seeking, km and location (got \(quoted([field])))\(hint): prefs age MIN-MAX, "
                    + "prefs seeking f;m|any, prefs km N|off, prefs location LAT LON|none")
        }
    }
}
