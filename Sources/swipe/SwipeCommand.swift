import ArgumentParser

/// The `swipe` command line (README, "Command line"). `swipe` alone runs the REPL.
@main
struct SwipeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "swipe",
        abstract: "A matching-app core: a SQLite profile store, a four-card deck and a REPL.",
        subcommands: [ReplCommand.self, Import.self, History.self, Matches.self, Profiles.self, Stats.self],
        defaultSubcommand: ReplCommand.self)
}
