import ArgumentParser
import SwipeCLI
import SwipeCommandLine
import SwipeSession
import SwipeStore

/// `swipe prefs`: show or change whom the viewer wants to see.
struct Prefs: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show or change whom the viewer wants to see (Documentation/Discovery.md).",
        discussion: """
            The feed shows only people who fit the viewer's preferences and whose
            preferences the viewer fits. With no option, prints them.
            Example: swipe prefs --as m-1 --age 25-35 --seeking 'female;male' --max-km 50 --location 52.52,13.40
            """)

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var viewer: ViewerOptions
    @Option(help: ArgumentHelp("Genders to see, ';'-separated, or any.", valueName: "f;m|any")) var seeking: String?
    @Option(help: ArgumentHelp("Ages to see, 18–120.", valueName: "MIN-MAX")) var age: String?
    @Option(name: .customLong("max-km"), help: ArgumentHelp("Farthest distance in km, or off.", valueName: "KM|off"))
    var maxKm: String?
    // `.unconditional`: a southern or western place begins with a minus
    // (`--location -33.9,18.4`), which is a value here, never an option.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Where the viewer is, in degrees, or none.", valueName: "LAT,LON|none")) var location:
        String?
    @OptionGroup var output: FormatOptions

    func run() throws {
        try ExitStatus.reporting {
            // Every value is checked before the database is opened: a typo changes nothing.
            var change = PreferencesChange()
            if let seeking { change.seeking = PreferencesChange.seeking(seeking) }
            if let age { change.ages = try PreferencesChange.ages(age) }
            if let maxKm { change.maxKm = .some(try PreferencesChange.maxKm(maxKm)) }
            if let location { change.location = .some(try PreferencesChange.location(location)) }
            // Printing only reads: the file is opened read-only.
            let store = try change.isEmpty ? database.openReading() : database.openExisting()
            let id = try viewer.resolve(in: store)
            let profile = change.isEmpty ? try store.profile(id: id) : try store.setPreferences(viewer: id, change)
            guard let profile else { throw StoreError.unknownProfile(id) }
            let p = profile.preferences
            // A gender nobody has empties the feed silently: say so (README "Ranking", genders).
            if seeking != nil, let unknown = try store.unknownGenders(p.seeking) {
                var stderr = StandardError()
                stderr.write("swipe prefs: " + TerminalText.sanitized(unknown) + "\n")
            }
            let cells: [Cell] = [
                .text(profile.id), .list(p.seeking), .int(p.ageMin), .int(p.ageMax), p.maxKm.map(Cell.real) ?? .null,
                profile.location.map { .real($0.lat) } ?? .null, profile.location.map { .real($0.lon) } ?? .null,
            ]
            try output.write(columns: ["id", "seeking", "age_min", "age_max", "max_km", "lat", "lon"], rows: [cells]) {
                $0
            }
        }
    }
}

/// `swipe likes`: who likes the viewer and waits for a decision.
struct Likes: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List who likes the viewer and is not yet decided: superlikes first, then oldest first.")

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var viewer: ViewerOptions
    @OptionGroup var range: TimeRangeOptions
    @OptionGroup var output: FormatOptions

    func run() throws {
        try ExitStatus.reporting {
            let store = try database.openReading()
            let id = try viewer.resolve(in: store)
            try output.write(
                columns: ["profile", "name", "decision", "decided_at"],
                rows: try store.likes(viewer: id).filter { range.contains($0.likedAt) }
            ) {
                [.text($0.profile), .text($0.name), .text($0.decision.rawValue), .text($0.likedAt)]
            }
        }
    }
}
