import SwipeCore
import SwipeStore

/// Why a command was refused, as a value: what refused it (`reason`, the
/// typed error the core threw) and the sentence every interface shows
/// (`message`: the REPL prints it, JSON mode and the socket send it as
/// `error`). An app that embeds swipe switches over `reason`; nothing needs
/// to read the sentence back.
public struct Refusal: Error, CustomStringConvertible {
    public enum Reason: Sendable {
        /// The line or command object names no valid command (nothing was done).
        case command(CommandError)
        /// The deck's rules (no card on top, a drag while the detail page is open…).
        case deck(DeckRefusal)
        /// Another session decided the card first; it left the deck.
        case decidedElsewhere(DecidedElsewhere)
        /// The viewer is not (or no longer) a profile.
        case viewer(ViewerError)
        /// A value the profile cannot hold (`me set`, `prefs`).
        case value(ProfileValueIssue)
        /// The store's rules (a quota, a block, not matched, suspended…).
        case store(StoreError)
        /// A chat line refused before it reached the store (a blank `/report`).
        case chat
        /// The driver's budgets refused the command before it ran (a server's rate limits).
        case budget
        /// The machinery failed (the store unreachable, a row it cannot
        /// read): `message` is what the driver tells the person, never the
        /// internals.
        case failure(any Error)
    }

    public let reason: Reason
    public let message: String

    public init(_ reason: Reason, message: String) {
        self.reason = reason
        self.message = message
    }

    public var description: String { message }

    /// Whether the refusal is the machinery's, not the rules' (a server counts these apart).
    public var isFailure: Bool {
        if case .failure = reason { true } else { false }
    }
}

extension Refusal.Reason {
    /// What refused, for an error the core threw: one of the rules' typed
    /// refusals, worded for the person acting, or the machinery's failure
    /// (a row the store cannot read, a write it could not make). The one
    /// place that tells them apart (`ReplSession.isRefusal` asks it).
    public init(_ error: any Error) {
        switch error {
        case let error as CommandError: self = .command(error)
        case let error as DeckRefusal: self = .deck(error)
        case let error as DecidedElsewhere: self = .decidedElsewhere(error)
        case let error as ViewerError: self = .viewer(error)
        case let error as ProfileValueIssue: self = .value(error)
        case let error as StoreError:
            switch error {
            case .unknownProfile, .alreadyDecided, .notDecided, .selfDecision, .blocked, .selfAction, .alreadyBlocked,
                .notBlocked, .notMatched, .quotaExceeded, .rewindRefused, .invalidValue, .messageRefused,
                .photoRefused, .suspended, .notModerator, .unknownQueueItem:
                self = .store(error)
            case .undecodable, .notStored:
                self = .failure(error)
            }
        default: self = .failure(error)
        }
    }
}
