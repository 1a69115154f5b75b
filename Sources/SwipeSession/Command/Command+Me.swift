/// The REPL's `me` command (Documentation/PersonalData.md), parsed: one's
/// own profile. Values are kept as typed; the session checks them with the
/// importer's rules (`ProfileCheck`) and the preferences' (`PreferencesChange`),
/// so this parser needs nothing but the standard library and is fuzzed with
/// the rest (fuzz/run.sh).
///
/// The grammar is `me`, then a subcommand word and its arguments: `me set
/// FIELD VALUE…`. A subcommand is one case of `MeInput` and one branch of
/// `parseMe`.
public enum MeInput: Hashable, Sendable {
    /// `me`: the viewer's own profile and preferences.
    case show
    /// `me set FIELD VALUE…`: change one field.
    case set(MeField, String)
    /// `me erase ID`: erase oneself, for good; the id typed again is the
    /// confirmation (the session checks that it is the viewer's).
    case erase(confirm: String)
    /// `me photo add FILE|URL`, `me photo remove N`, `me photo move N M`
    /// (Documentation/Photos.md): positions count from 1.
    case photo(MePhoto)
    /// `me export [FILE]`: everything the store holds about the viewer, the
    /// document `swipe export` writes; to FILE (replaced whole, as `swipe
    /// export FILE` replaces it) or as the answer.
    case export(file: String?)
}

/// A `me photo` subcommand, as typed.
public enum MePhoto: Hashable, Sendable {
    /// A file on this machine, or an `https://` URL (the session tells them apart).
    case add(String)
    case remove(Int)
    case move(from: Int, to: Int)
}

/// A field `me set` changes: the profile's own columns, the place, and the
/// preferences `prefs` changes too.
public enum MeField: String, CaseIterable, Hashable, Sendable {
    case name, age, gender, city, bio, interests, place, seeking, ages, km

    /// Every spelling: the names, and the words `prefs` and the CSV use.
    public static let spellings: [String: MeField] = {
        var table = Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })
        table["location"] = .place
        table["age-range"] = .ages
        table["max-km"] = .km
        table["max_km"] = .km
        table["distance"] = .km
        return table
    }()

    /// How its value is typed, for help and refusals.
    public var form: String {
        switch self {
        case .name: "TEXT"
        case .age: "18-120"
        case .gender, .city: "TEXT (\"\" for none)"
        case .bio: "TEXT… (\"\" for none)"
        case .interests: "A;B;C (\"\" for none)"
        case .place: "LAT,LON | none"
        case .seeking: "f;m | any"
        case .ages: "MIN-MAX"
        case .km: "N | off"
        }
    }

    /// An example of the whole command.
    public var example: String {
        switch self {
        case .name: "me set name Camille"
        case .age: "me set age 31"
        case .gender: "me set gender f"
        case .city: "me set city Lyon"
        case .bio: "me set bio Climber, cook, bad at chess"
        case .interests: "me set interests climbing;cooking"
        case .place: "me set place 45.76,4.84"
        case .seeking: "me set seeking f;m"
        case .ages: "me set ages 25-35"
        case .km: "me set km 50"
        }
    }
}

extension Command {
    /// Parses the words after `me`; `fail` words the refusal.
    package static func parseMe(_ arguments: [String], fail: (String) -> CommandError) throws(CommandError)
        -> Command
    {
        guard let sub = arguments.first?.lowercased() else { return .me(.show) }
        let rest = Array(arguments.dropFirst())
        switch sub {
        case "set":
            let fields = MeField.allCases.map(\.rawValue).joined(separator: ", ")
            guard let name = rest.first else {
                throw fail("me set takes a field and its value: \(fields) (got nothing), e.g. me set city Lyon")
            }
            guard let field = MeField.spellings[name.lowercased()] else {
                let hint = didYouMean([name], among: Array(MeField.spellings.keys).sorted(), verb: "me set")
                throw fail("me set knows \(fields) (got \(quoted([name])))\(hint), e.g. me set city Lyon")
            }
            let words = Array(rest.dropFirst())
            guard !words.isEmpty else {
                throw fail("me set \(field.rawValue) takes \(field.form) (got nothing), e.g. \(field.example)")
            }
            // A value typed whole is free text (`parseFreeText`); here only
            // what it left: a value of quoted words alone (`""`, `"a b"`).
            return .me(.set(field, words.joined(separator: " ")))
        case "photo", "photos":
            return .me(.photo(try parsePhoto(rest, fail: fail)))
        case "erase":
            guard rest.count == 1 else {
                throw fail(
                    "me erase takes your own id, typed again to confirm (got \(quoted(rest))), e.g. me erase m-3")
            }
            return .me(.erase(confirm: rest[0]))
        case "export":
            guard rest.count <= 1 else {
                throw fail(
                    "me export takes at most one file to write (got \(quoted(rest))); "
                        + "quote a path with spaces, e.g. me export \"~/My data/me.json\"")
            }
            return .me(.export(file: rest.first))
        default:
            let hint = didYouMean([sub], among: ["set", "photo", "export", "erase"], verb: "me")
            throw fail(
                "me takes nothing, set FIELD VALUE, photo add|remove|move, export [FILE] or erase ID "
                    + "(got \(quoted(arguments)))\(hint), e.g. me, me set city Lyon, me export me.json"
            )
        }
    }

    /// Parses the words after `me photo`.
    package static func parsePhoto(_ words: [String], fail: (String) -> CommandError) throws(CommandError)
        -> MePhoto
    {
        let usage = "me photo add FILE|URL, me photo remove N or me photo move N M"
        func position(_ word: String) throws(CommandError) -> Int {
            guard let number = Int(word), number >= 1 else {
                throw fail(
                    "a photo's position is a whole number from 1 (got \(quoted([word]))), e.g. me photo remove 2")
            }
            return number
        }
        switch words.first?.lowercased() {
        case "add":
            guard words.count == 2 else {
                throw fail(
                    "me photo add takes one file or https:// URL (got \(quoted(Array(words.dropFirst())))); "
                        + "quote a path with spaces, e.g. me photo add \"~/My photos/ana.jpg\"")
            }
            return .add(words[1])
        case "remove", "rm", "delete":
            guard words.count == 2 else {
                throw fail(
                    "me photo remove takes a photo's position (got \(quoted(Array(words.dropFirst()))), e.g. me photo remove 2"
                )
            }
            return .remove(try position(words[1]))
        case "move", "mv":
            guard words.count == 3 else {
                throw fail(
                    "me photo move takes two positions, from and to (got \(quoted(Array(words.dropFirst())))), "
                        + "e.g. me photo move 3 1")
            }
            return .move(from: try position(words[1]), to: try position(words[2]))
        default:
            let hint = didYouMean(Array(words.prefix(1)), among: ["add", "remove", "move"], verb: "me photo")
            throw fail("me photo takes \(usage) (got \(quoted(words)))\(hint)")
        }
    }
}
