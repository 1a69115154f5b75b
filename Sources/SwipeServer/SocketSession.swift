import Synchronization
import SwipeCLI
import SwipeCore
import SwipeStore

/// One WebSocket's deck: the REPL's own session (parser, deck, ledger)
/// answering in JSON, so the server is one more driver of `ReplSession`,
/// not a second implementation of the commands.
///
/// Each answer is built as a value and encoded once. Besides the REPL's
/// members it carries `profiles`: the profile of each card this socket has
/// not been sent yet, so a page can draw card faces from `cards`, which
/// name profiles by id only.
///
/// The socket runs one command at a time (each finishes before the next
/// frame is read), on whichever thread is free; the mutex makes that safe
/// to state rather than to promise.
public final class SocketSession: Sendable {
    private struct State {
        var repl: ReplSession
        var sentProfiles: Set<String> = []
    }

    private let state: Mutex<State>

    init(_ repl: sending ReplSession) {
        state = Mutex(State(repl: repl))
    }

    /// Runs one command line; returns its answer, one JSON object, no newline.
    public func run(_ line: ReplLine) -> String {
        state.withLock { state in
            var members = state.repl.jsonAnswer(line, profile: JSONValue.profile)
            let fresh = state.repl.snapshot.cards.compactMap(\.profile).filter { !state.sentProfiles.contains($0.id) }
            if !fresh.isEmpty {
                state.sentProfiles.formUnion(fresh.map(\.id))
                members.append(("profiles", .array(fresh.map(JSONValue.profile))))
            }
            return JSONValue.object(members).serialized
        }
    }

    public func run(_ line: String) -> String {
        run(ReplLine(line))
    }
}
