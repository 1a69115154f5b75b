import ArgumentParser
import SwipeCommandLine

// `swipe serve` and `swipe link` are run by `swipe-serve` (`ServeCommands`):
// `SwipeCommand.main()` hands them over before parsing. These stand-ins only
// list them in `swipe --help`, with the abstracts `swipe-serve` shows.

/// `swipe serve`, as `swipe --help` lists it.
struct ServeForward: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve", abstract: ServeCommands.serveAbstract)
}

/// `swipe link`, as `swipe --help` lists it.
struct LinkForward: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "link", abstract: ServeCommands.linkAbstract)
}
