import Foundation
import SwipeCore

/// Photos as a role of the store (`SwipeDatabase`; Documentation/Photos.md):
/// a profile's own photos changed by its owner, and a stored photo served
/// to a signed-in viewer. The rules are `SQLDatabase+Photos`.
public protocol SwipePhotos: AnyObject {
    @discardableResult
    func addPhoto(viewer: String, _ source: PhotoSource, at date: Date?) throws -> Profile
    @discardableResult
    func removePhoto(viewer: String, position: Int) throws -> Profile
    @discardableResult
    func movePhoto(viewer: String, from: Int, to: Int) throws -> Profile
    func servedPhoto(id: String, viewer: String, unlessSHA256 current: String?) throws -> ServedPhoto?
    func makePhotoSecret() throws -> String
}

/// What `me photo add` adds: a photo's checked bytes, to be stored, or an
/// `https://` URL, kept as given (the page shows only stored photos).
public enum PhotoSource: Hashable, Sendable {
    case bytes(PhotoBytes)
    case url(String)
}

/// A stored photo as `swipe serve` answers it: what the headers say, and
/// the bytes unless the client's copy is current.
public struct ServedPhoto: Hashable, Sendable {
    public var mediaType: PhotoMediaType
    /// SHA-256 of the bytes, hex: the ETag (quoted in the header).
    public var sha256: String
    public var byteSize: Int
    /// nil when the caller's `If-None-Match` named this content (a 304).
    public var bytes: [UInt8]?
    /// Whose photo it is (their id).
    public var owner: String
    /// Whether the viewer knows the owner by a standing tie: their own photo,
    /// a match, or the owner's standing like the viewer has not decided (a liker).
    /// Otherwise `swipe serve` shows it only to a viewer the owner is eligible
    /// for (a card they may be dealt).
    public var isKnownToViewer: Bool

    public init(
        mediaType: PhotoMediaType, sha256: String, byteSize: Int, bytes: [UInt8]?, owner: String = "",
        isKnownToViewer: Bool = false
    ) {
        self.mediaType = mediaType
        self.sha256 = sha256
        self.byteSize = byteSize
        self.bytes = bytes
        self.owner = owner
        self.isKnownToViewer = isKnownToViewer
    }
}

/// One item of a profile's `photos` list, as the rules read it
/// (Documentation/Photos.md): a stored photo's path, an `https://` URL, a
/// file path (a CSV's, relative to its folder), or something refused.
public enum PhotoItem: Hashable, Sendable {
    /// `/photos/ID`: a photo stored in the database.
    case stored(id: String)
    /// `https://…`, kept as given.
    case url(String)
    /// A relative file path (`photos/ana.jpg`): only an import reads it.
    case file(String)
    /// Anything else: `http://…`, another scheme, an absolute path.
    case refused(String)

    /// The path `swipe serve` serves a stored photo at: `/photos/` and 32 hex digits.
    public static let pathPrefix = "/photos/"

    public init(_ text: String) {
        if text.hasPrefix(Self.pathPrefix) {
            let id = String(text.dropFirst(Self.pathPrefix.count))
            self = PhotoID.isWellFormed(id) ? .stored(id: id) : .refused(text)
        } else if text.lowercased().hasPrefix("https://") && text.count > 8 {
            self = .url(text)
        } else if Self.hasScheme(text) || text.hasPrefix("/") || text.hasPrefix("\\") || text.hasPrefix("~") {
            self = .refused(text)
        } else {
            self = .file(text)
        }
    }

    /// `scheme:` as RFC 3986 spells one (a letter, then letters, digits, `+ - .`).
    public static func hasScheme(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else { return false }
        let scheme = text[..<colon]
        return scheme.first!.isASCII && scheme.first!.isLetter
            && scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
    }

    public static func path(id: String) -> String { pathPrefix + id }
}

/// A stored photo's id: the first 32 hex digits of SHA-256 over the
/// database's photo secret, the profile's id and the content's SHA-256. The
/// same photo of the same person has the same path (a re-import changes
/// nothing), and no one without the secret can guess a path from a picture
/// and a name.
public enum PhotoID {
    public static func make(secret: String, profile: String, sha256: String) -> String {
        let input = Array("swipe photo\u{0}\(secret)\u{0}\(profile)\u{0}\(sha256)".utf8)
        return String(PhotoBytes.hex(SHA256Digest.hash(input)).prefix(32))
    }

    /// A new photo secret: 32 random bytes as hex.
    public static func newSecret() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in PhotoBytes.hex(UInt8.random(in: .min ... .max, using: &generator)) }.joined()
    }

    public static func isWellFormed(_ id: String) -> Bool {
        id.utf8.count == 32 && id.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
