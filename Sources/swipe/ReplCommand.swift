import ArgumentParser

/// Placeholder for the REPL; the REPL developer replaces this file wholesale.
struct ReplCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "repl", abstract: "Drive the deck by typing gestures.")

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var viewer: ViewerOptions
    @Option(help: "Physics preset: tantan, draggable, stack or scrub.") var physics: String = "tantan"
    @Flag(help: "Answer each command with one JSON object per line.") var json = false

    func run() throws {
        print("REPL not built yet")
    }
}
