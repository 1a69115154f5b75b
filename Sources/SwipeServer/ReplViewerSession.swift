import SwipeCLI
import SwipeCore

/// Drives the REPL's own session (parser, deck, ledger) in JSON mode for one
/// WebSocket: the server is one more driver of `ReplSession`, not a second
/// implementation of the commands.
///
/// Answers also carry `profiles`: the whole profile (keyed as in `swipe
/// profiles`) of each card this connection has not been sent yet, so a page
/// can draw card faces from `cards`, which name profiles by id only.
final class ReplViewerSession<Feed: ProfileFeed, Ledger: ReplLedger>: ViewerSession {
    private var session: ReplSession<Feed, Ledger>
    private var sentProfiles: Set<String> = []

    init(_ session: ReplSession<Feed, Ledger>) {
        self.session = session
    }

    func run(_ line: String) -> String {
        var output = ""
        session.run(line, into: &output)
        while output.last == "\n" { output.removeLast() }
        let fresh = session.snapshot.cards.compactMap(\.profile).filter { !sentProfiles.contains($0.id) }
        guard !fresh.isEmpty, output.last == "}" else { return output }
        sentProfiles.formUnion(fresh.map(\.id))
        output.removeLast()
        return output + ",\"profiles\":" + JSONValue.array(fresh.map(JSONValue.profile)).serialized + "}"
    }
}
