import ArgumentParser
import Foundation
import SwipeCommandLine
import SwipeServer
import SwipeSession
import SwipeStore

/// `swipe link`: a sign-in link for `swipe serve`.
struct Link: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: ServeCommands.linkAbstract,
        discussion: """
            The link holds a token signed with this database's secret (made on first use): it works \
            only with this database, only as this viewer, and only until it expires. Anyone holding \
            it acts as that viewer: send it privately.
            """)

    @OptionGroup var database: DatabaseOptions
    @Option(
        name: .customLong("as"),
        help: ArgumentHelp(
            "The viewer the link signs in as (default $SWIPE_AS).", valueName: "PROFILE_ID"))
    var viewer: String?
    @Option(help: ArgumentHelp("How long the link works, in hours.", valueName: "N")) var hours = 24.0
    @Flag(
        help:
            "Sign the viewer (--as) out everywhere: every link made for them so far stops working, open pages included."
    )
    var revoke = false
    @Flag(
        name: .customLong("revoke-all"), help: "Sign everyone out: a new secret; every link made so far stops working.")
    var revokeAll = false
    @Option(help: ArgumentHelp("Where swipe serve is reached.", valueName: "URL"))
    var base = "http://127.0.0.1:8080"

    func validate() throws {
        guard !(revoke && revokeAll) else { throw ValidationError("--revoke and --revoke-all: say one") }
        // A link that expires before anyone can open it is no link: a minute at least.
        guard hours >= 1.0 / 60, hours <= 24 * 366, hours.isFinite else {
            throw ValidationError(
                "--hours \(hours) is out of range: a link works for one minute (--hours 0.0167) to a year (--hours 8784)"
            )
        }
        guard base.hasPrefix("http://") || base.hasPrefix("https://") else {
            throw ValidationError("--base must start with http:// or https://, as in http://127.0.0.1:8080")
        }
    }

    func run() throws {
        try ExitStatus.reporting {
            var stderr = StandardError()
            if revokeAll {
                let store = try database.openExisting()
                try store.revokeSignIns(viewer: nil)
                stderr.write(
                    "swipe: every sign-in link made so far stops working (open pages are signed out within seconds)\n")
                return
            }
            let chosen = viewer ?? ProcessInfo.processInfo.environment["SWIPE_AS"]
            guard let chosen, !chosen.isEmpty else {
                throw ValidationError("say who the link signs in as: --as PROFILE_ID")
            }
            let store = try database.openExisting()
            guard try store.isProfile(chosen) else { throw ViewerError.notAProfile(chosen) }
            if revoke {
                try store.revokeSignIns(viewer: chosen)
                stderr.write(
                    "swipe: every sign-in link made for \(TerminalText.sanitized(chosen)) so far stops working "
                        + "(open pages are signed out within seconds)\n")
                return
            }
            guard let secret = try store.accessSecret(create: true) else {
                throw DatabaseOpenError.missing(path: store.location)
            }
            let expiry = Date().addingTimeInterval(hours * 3600)
            let token = AccessTokens(secret: secret).issue(
                viewer: chosen, expiry: expiry, generation: try store.signInGeneration(viewer: chosen))
            var trimmed = base
            while trimmed.hasSuffix("/") { trimmed.removeLast() }
            print("\(trimmed)/?token=\(token)")
            stderr.write(
                "swipe: this link acts as \(TerminalText.sanitized(chosen)) until "
                    + "\(ISO8601DateFormatter().string(from: expiry)); anyone holding it can.\n")
        }
    }
}
