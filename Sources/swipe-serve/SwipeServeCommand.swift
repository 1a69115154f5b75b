import ArgumentParser
import SwipeCommandLine

/// `swipe-serve`: what `swipe serve` and `swipe link` run (`ServeCommands`).
/// Its usage lines say `swipe serve` and `swipe link`, the words a person
/// types; run alone it can be called `swipe-serve serve …` too.
@main
struct SwipeServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "swipe",
        abstract: "The web server of swipe: `swipe serve` and `swipe link`.",
        version: SwipeVersion.current,
        subcommands: [Serve.self, Link.self])
}
