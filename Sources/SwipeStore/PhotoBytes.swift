/// What a stored photo is, by its bytes (never by a file name or a header a
/// client sends).
public enum PhotoMediaType: String, Hashable, Sendable, CaseIterable {
    case jpeg = "image/jpeg"
    case png = "image/png"
    case webp = "image/webp"

    /// "JPEG", "PNG", "WebP".
    public var name: String {
        switch self {
        case .jpeg: "JPEG"
        case .png: "PNG"
        case .webp: "WebP"
        }
    }
}

/// A photo as swipe stores it: checked and stripped, with no I/O (the
/// caller reads the file or the upload). `init(checking:)` is the one place
/// the rules on a photo's bytes live (Documentation/Photos.md):
///
/// - JPEG, PNG or WebP, recognised by the first bytes alone;
/// - at most `PhotoLimits.maximumBytes` as given;
/// - metadata stripped before anything is stored. JPEG: every APPn segment
///   but the JFIF APP0 and Adobe's APP14 (four bytes that tell how its
///   colours are coded, needed to decode it) goes, EXIF (GPS included), XMP,
///   ICC, Photoshop's IPTC alike, and every comment (COM); what follows the
///   end of the image too. The orientation alone is kept, as a fresh 34-byte
///   EXIF holding that one tag, so a phone's portrait still stands up.
///   The scan data is copied byte for byte: the image is not re-encoded.
///   PNG keeps only IHDR, PLTE, tRNS, gAMA, cHRM, sRGB, IDAT and IEND;
///   WebP only VP8, VP8L, VP8X, ALPH, ANIM and ANMF (and VP8X's ICC,
///   EXIF and XMP flags are cleared). Everything else goes: EXIF, XMP,
///   C2PA, ICC profiles, text and chunks nobody has named yet;
/// - at most `PhotoLimits.maximumPixels` and `.maximumSide` by the size
///   its header says (a decompression bomb is refused before it is stored).
public struct PhotoBytes: Hashable, Sendable {
    public let mediaType: PhotoMediaType
    /// The bytes to store and serve.
    public let bytes: [UInt8]
    /// SHA-256 of `bytes`, lower-case hex: the ETag, and how a profile's
    /// second copy of a photo is recognised.
    public let sha256: String
    /// The size as given, before stripping.
    public let givenSize: Int

    /// Checks and strips `given`.
    ///
    /// - Throws: `PhotoRefusal.tooLarge`, `.notAnImage`, `.damaged`.
    public init(checking given: [UInt8]) throws(PhotoRefusal) {
        let kind = Self.kind(of: given)
        guard given.count <= PhotoLimits.maximumBytes else {
            throw .tooLarge(bytes: given.count, kind: kind.map(\.name) ?? "file")
        }
        guard let kind else { throw .notAnImage(bytes: given.count, kind: Self.describe(given)) }
        try Self.checkPixels(given, kind: kind)
        let stripped: [UInt8]
        do {
            switch kind {
            case .jpeg: stripped = try JPEGStripper.strip(given)
            case .png: stripped = try PNGStripper.strip(given)
            case .webp: stripped = try WebPStripper.strip(given)
            }
        } catch let damage {
            throw .damaged(bytes: given.count, kind: kind.name, reason: damage.reason)
        }
        mediaType = kind
        bytes = stripped
        sha256 = Self.hex(SHA256Digest.hash(stripped))
        givenSize = given.count
    }

    /// A photo read back from the store, trusted as stored.
    public init(stored bytes: [UInt8], mediaType: PhotoMediaType, sha256: String) {
        self.bytes = bytes
        self.mediaType = mediaType
        self.sha256 = sha256
        givenSize = bytes.count
    }

    /// Refuses a picture over `PhotoLimits.maximumPixels` or
    /// `.maximumSide`, by the size its header says (nothing is decoded). A
    /// WebP whose size cannot be read is damaged; a JPEG or PNG whose
    /// header does not read is refused as damaged by its stripper.
    static func checkPixels(_ given: [UInt8], kind: PhotoMediaType) throws(PhotoRefusal) {
        let size: (width: Int, height: Int)?
        switch kind {
        case .jpeg: size = JPEGStripper.dimensions(given)
        case .png: size = PNGStripper.dimensions(given)
        case .webp:
            size = WebPStripper.dimensions(given)
            if size == nil {
                throw .damaged(bytes: given.count, kind: kind.name, reason: "its size cannot be read")
            }
        }
        guard let size else { return }
        if size.width > PhotoLimits.maximumSide || size.height > PhotoLimits.maximumSide
            || size.width * size.height > PhotoLimits.maximumPixels
        {
            throw .tooManyPixels(width: size.width, height: size.height, kind: kind.name)
        }
    }

    /// The type the first bytes say, or nil.
    public static func kind(of bytes: [UInt8]) -> PhotoMediaType? {
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) {
            return .webp
        }
        return nil
    }

    /// What a refused file looks like, for its message: a few formats
    /// people try (GIF, HEIC from a phone, BMP, TIFF, PDF, SVG or HTML),
    /// else its first bytes in hex.
    static func describe(_ bytes: [UInt8]) -> String {
        func begins(_ text: String, at offset: Int = 0) -> Bool {
            bytes.count >= offset + text.utf8.count
                && Array(bytes[offset..<offset + text.utf8.count]) == Array(text.utf8)
        }
        if bytes.isEmpty { return "nothing" }
        if begins("GIF8") { return "GIF" }
        if begins("ftypheic", at: 4) || begins("ftypheix", at: 4) || begins("ftypmif1", at: 4) { return "HEIC" }
        if begins("ftypavif", at: 4) { return "AVIF" }
        if begins("BM") { return "BMP" }
        if begins("II*\0") || begins("MM\0*") { return "TIFF" }
        if begins("%PDF") { return "PDF" }
        let head = String(decoding: bytes.prefix(256), as: UTF8.self).lowercased()
        if head.contains("<svg") { return "SVG" }
        if head.contains("<html") || head.contains("<!doctype") { return "HTML" }
        return "unknown type, beginning " + bytes.prefix(8).map { hex($0) }.joined(separator: " ")
    }

    static func hex(_ digest: some Sequence<UInt8>) -> String { digest.map { hex($0) }.joined() }
    static func hex(_ byte: UInt8) -> String { (byte < 16 ? "0" : "") + String(byte, radix: 16) }
}

/// Why a photo that begins as a known format cannot be read as one.
struct PhotoDamage: Error {
    var reason: String
}

/// Big-endian and little-endian reads that never trap: nil past the end.
extension Array where Element == UInt8 {
    func be16(_ at: Int) -> Int? { at >= 0 && at + 2 <= count ? Int(self[at]) << 8 | Int(self[at + 1]) : nil }
    func be32(_ at: Int) -> Int? {
        guard at >= 0, at + 4 <= count else { return nil }
        return self[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
    }
    func le32(_ at: Int) -> Int? {
        guard at >= 0, at + 4 <= count else { return nil }
        return self[at..<at + 4].reversed().reduce(0) { $0 << 8 | Int($1) }
    }
}
