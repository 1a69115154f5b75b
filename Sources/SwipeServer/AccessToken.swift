import Crypto
import Foundation

/// Sign-in tokens: who a browser acts as, and until when.
///
/// A token is `v1.VIEWER.EXPIRY.MAC`: the viewer id in base64url, the expiry
/// in Unix seconds, and HMAC-SHA256 over both, keyed by the database's random
/// secret. Only someone holding the secret can make one, so a token acts only
/// as its viewer; an edited viewer or expiry, a token from another database
/// (another secret) and an expired one are all refused.
public struct AccessTokens: Sendable {
    private let key: SymmetricKey

    /// Tokens keyed by `secret` (the database's, as text).
    public init(secret: String) {
        key = SymmetricKey(data: Array(secret.utf8))
    }

    /// A token for `viewer` that is valid until `expiry`, or until the
    /// viewer's sign-in generation (`swipe link --revoke`) passes `generation`.
    public func issue(viewer: String, expiry: Date, generation: Int = 0) -> String {
        let seconds = Int64(expiry.timeIntervalSince1970.rounded(.down))
        let payload = Self.payload(viewer: viewer, expiry: seconds, generation: generation)
        let mac = HMAC<SHA256>.authenticationCode(for: Array(payload.utf8), using: key)
        return "v1.\(Base64URL.encode(Array(viewer.utf8))).\(seconds).\(Base64URL.encode(Array(mac)))"
    }

    /// The viewer `token` acts as, if it was signed with this secret and has
    /// not expired at `now`.
    /// The viewer a token names, unverified: whose sign-in generation to
    /// look up before `verify`.
    public static func claimedViewer(in token: String) -> String? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, let bytes = Base64URL.decode(parts[1]) else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

    /// `generation`: the viewer's sign-in generation now; a token made
    /// under another one was revoked and is refused as altered.
    public func verify(_ token: String, now: Date = Date(), generation: Int = 0) throws(AccessTokenError) -> AccessGrant
    {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "v1",
            let viewerBytes = Base64URL.decode(parts[1]), let viewer = String(validating: viewerBytes, as: UTF8.self),
            let seconds = Int64(parts[2]), String(seconds) == parts[2], let mac = Base64URL.decode(parts[3])
        else { throw .malformed }
        let payload = Self.payload(viewer: viewer, expiry: seconds, generation: generation)
        guard HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: Array(payload.utf8), using: key) else {
            throw .badSignature
        }
        let expiry = Date(timeIntervalSince1970: TimeInterval(seconds))
        guard now < expiry else { throw .expired(expiry) }
        return AccessGrant(viewer: viewer, expiry: expiry)
    }

    /// What the MAC covers: a version tag, the viewer and the expiry, each on
    /// its own line (a viewer id cannot hold a newline that shifts the split:
    /// the id is length-free but the expiry is digits only, read from the end).
    /// Generation 0 signs as tokens always have (links made before
    /// revocation existed stay valid until revoked).
    private static func payload(viewer: String, expiry: Int64, generation: Int) -> String {
        generation == 0
            ? "swipe-link-v1\n\(viewer)\n\(expiry)" : "swipe-link-v1g\n\(generation)\n\(viewer)\n\(expiry)"
    }
}

/// A verified token: the viewer it acts as and when it stops working.
public struct AccessGrant: Hashable, Sendable {
    public var viewer: String
    public var expiry: Date
}

/// Why a token was refused. The wording never repeats the token.
public enum AccessTokenError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not a token at all (cut short, or not made by `link`).
    case malformed
    /// Altered, or signed by another database.
    case badSignature
    case expired(Date)
    /// No token was given.
    case missing
    /// The viewer is suspended (Documentation/Moderation.md): the reason,
    /// and when it ends (nil: for good).
    case suspended(reason: String, until: String?)

    public var description: String {
        switch self {
        case .malformed: "the sign-in token is not one this server made"
        case .badSignature: "the sign-in token was altered or belongs to another database"
        case .expired(let date): "the sign-in link expired at \(ISO8601DateFormatter().string(from: date))"
        case .missing: "no sign-in token"
        case .suspended(let reason, let until):
            "the account is suspended " + (until.map { "until \($0)" } ?? "for good") + ": \(reason)"
        }
    }
}

/// base64url without padding (RFC 4648 §5), as tokens travel in URLs and cookies.
enum Base64URL {
    static func encode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The bytes `text` spells, if it is their one spelling: unused low
    /// bits set, or any other variant that decodes to the same bytes, is
    /// refused, so a token has exactly one form (and one cookie, one log
    /// entry, one revocation).
    static func decode(_ text: Substring) -> [UInt8]? {
        guard let bytes = lenientDecode(text), encode(bytes) == text else { return nil }
        return bytes
    }

    private static func lenientDecode(_ text: Substring) -> [UInt8]? {
        guard text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
            return nil
        }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64).map(Array.init)
    }
}
