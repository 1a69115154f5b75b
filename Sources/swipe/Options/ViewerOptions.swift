import ArgumentParser
import Foundation
import SwipeStore

/// `--as PROFILE_ID`: who is swiping.
struct ViewerOptions: ParsableArguments {
    @Option(name: .customLong("as"), help: ArgumentHelp(
        "The viewer's profile id (default $SWIPE_AS, else the last viewer used with this database).",
        valueName: "PROFILE_ID"))
    var id: String?

    /// The viewer per `--as`, `$SWIPE_AS` or the database's memory (only the REPL remembers one).
    func resolve(in store: any SwipeDatabase) throws -> String {
        try store.resolveViewer(Self.requested(option: id, environment: ProcessInfo.processInfo.environment))
    }

    /// `--as`, else `$SWIPE_AS`; nil when neither names anyone.
    static func requested(option: String?, environment: [String: String]) -> String? {
        if let option, !option.isEmpty { return option }
        if let fromEnvironment = environment["SWIPE_AS"], !fromEnvironment.isEmpty { return fromEnvironment }
        return nil
    }
}
