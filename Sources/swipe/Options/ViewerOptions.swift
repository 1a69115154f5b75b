import ArgumentParser
import Foundation
import SwipeCLI
import SwipeCommandLine
import SwipeSession
import SwipeStore

/// `--as PROFILE_ID`: who is swiping.
struct ViewerOptions: ParsableArguments {
    @Option(
        name: .customLong("as"),
        help: ArgumentHelp(
            "The viewer's profile id (default $SWIPE_AS, else the last viewer used with this database).",
            valueName: "PROFILE_ID"))
    var id: String?

    /// The viewer per `--as`, `$SWIPE_AS` or the database's memory (only the REPL remembers one).
    /// One taken from memory is named on standard error (unless `announce` is
    /// false: the REPL names its viewer itself), so nobody reads or acts as
    /// someone without being told.
    func resolve(in store: any SwipeDatabase, announce: Bool = true) throws -> String {
        let requested = Self.requested(option: id, environment: ProcessInfo.processInfo.environment)
        let viewer = try store.resolveViewer(requested)
        if requested == nil && announce {
            var stderr = StandardError()
            stderr.write(
                "swipe: as \(TerminalText.oneLine(viewer)), the viewer last used with this database "
                    + "(--as chooses another)\n")
        }
        return viewer
    }

    /// `--as`, else `$SWIPE_AS`; nil when neither names anyone.
    static func requested(option: String?, environment: [String: String]) -> String? {
        if let option, !option.isEmpty { return option }
        if let fromEnvironment = environment["SWIPE_AS"], !fromEnvironment.isEmpty { return fromEnvironment }
        return nil
    }
}
