import Foundation
import Synchronization

/// The tokens this server accepts right now. The secret is read again
/// whenever the server checks sign-ins (`SwipeServer.checkSignIns`), so
/// `swipe link --revoke-all` (a new secret) or a deleted secret takes effect
/// without a restart.
final class SignIns: Sendable {
    private let state: Mutex<(secret: String?, tokens: AccessTokens?)>

    init(secret: String?) {
        state = Mutex((secret, secret.map(AccessTokens.init(secret:))))
    }

    /// Takes the secret as stored now; returns whether it changed.
    @discardableResult
    func update(secret: String?) -> Bool {
        state.withLock { state in
            guard state.secret != secret else { return false }
            state = (secret, secret.map(AccessTokens.init(secret:)))
            return true
        }
    }

    var tokens: AccessTokens? { state.withLock { $0.tokens } }
}
