import ArgumentParser
import SwipeStore

/// `swipe stats`: counts over the whole database.
struct Stats: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Count profiles, decisions and matches.")

    @OptionGroup var database: DatabaseOptions

    func run() throws {
        try ExitStatus.reporting {
            let stats = try database.openReading().stats()
            let lines: [(String, Int)] = [
                ("profiles", stats.profiles), ("viewers", stats.viewers), ("decisions", stats.decisions),
                ("undone", stats.undone), ("likes", stats.likes), ("superlikes", stats.superlikes),
                ("hates", stats.hates), ("matches", stats.matches), ("missed matches", stats.missedMatches),
            ]
            var out = StandardOutput()
            for (name, value) in lines {
                out.write(name.padding(toLength: 15, withPad: " ", startingAt: 0) + String(value) + "\n")
            }
        }
    }
}
