/// Why a photo was refused (Documentation/Photos.md), each case naming the
/// value at fault: its size and what its bytes are. Whoever read the photo
/// from a file or a command adds where it came from (`file: …`, the CSV's
/// line); the store's rules give the rest.
public enum PhotoRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    /// More than `PhotoLimits.maximumBytes`.
    case tooLarge(bytes: Int, kind: String)
    /// Not a JPEG, PNG or WebP by its first bytes; `kind` is what it looks
    /// like instead ("GIF", "HEIC", "text", or its first bytes in hex).
    case notAnImage(bytes: Int, kind: String)
    /// Begins as a JPEG, PNG or WebP but its structure is broken.
    case damaged(bytes: Int, kind: String, reason: String)
    /// Over `PhotoLimits.maximumPixels` or `maximumSide`: a small file can
    /// decode to gigabytes (a decompression bomb) in every viewer's browser.
    case tooManyPixels(width: Int, height: Int, kind: String)
    /// A photo value that is neither a stored photo nor an `https://` URL
    /// (`http://…`, `ftp://…`, an absolute path in a CSV…).
    case notAllowed(value: String)
    /// The profile has `PhotoLimits.maximumCount` photos already.
    case tooMany(limit: Int)
    /// There is no photo at this position (1-based) of a list of `count`.
    case noSuchPhoto(position: Int, count: Int)
    /// The profile has this very photo already, at `position` (1-based).
    case duplicate(position: Int)

    public var description: String {
        switch self {
        case let .tooLarge(bytes, kind):
            "the \(kind) is \(PhotoLimits.size(bytes)), over the \(PhotoLimits.size(PhotoLimits.maximumBytes)) a photo may be"
        case let .notAnImage(bytes, kind):
            "not a JPEG, PNG or WebP image (\(PhotoLimits.size(bytes)) of \(kind))"
        case let .damaged(bytes, kind, reason):
            "a damaged \(kind) (\(PhotoLimits.size(bytes))): \(reason)"
        case let .tooManyPixels(width, height, kind):
            "the \(kind) is \(width) × \(height) pixels (\(PhotoLimits.megapixels(width * height)) megapixels), "
                + "over the \(PhotoLimits.maximumPixels / 1_000_000) megapixels and "
                + "\(PhotoLimits.maximumSide.formatted(grouping: ",")) pixels a side a photo may be"
        case let .notAllowed(value):
            "\"\(value)\" is not a photo swipe can show: give a JPEG, PNG or WebP file, or an https:// URL"
        case let .tooMany(limit):
            "a profile may have at most \(limit) photos; remove one first"
        case let .noSuchPhoto(position, count):
            count == 0
                ? "there is no photo \(position): the profile has none"
                : "there is no photo \(position): the profile has \(count) (1 to \(count))"
        case let .duplicate(position):
            "this photo is already photo \(position) of the profile"
        }
    }
}

/// The limits on photos, whatever adds them (an import, `me photo add`, the page).
public enum PhotoLimits {
    /// 5 MB (5 × 1024 × 1024 bytes), as the file is given, before metadata is stripped.
    public static let maximumBytes = 5 * 1024 * 1024
    /// Photos per profile, stored ones and `https://` URLs together.
    public static let maximumCount = 9
    /// 40 megapixels (a 48 MP phone's default photo is 12 MP), and at most
    /// 10,000 pixels on either side.
    public static let maximumPixels = 40_000_000
    public static let maximumSide = 10_000

    /// `400.0`, `40.1`: megapixels to one decimal.
    static func megapixels(_ pixels: Int) -> String {
        let tenths = (pixels + 50_000) / 100_000
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// `2.1 MB`, `340 kB`, `12 bytes`: sizes as a person reads them (1 kB = 1024 bytes).
    public static func size(_ bytes: Int) -> String {
        if bytes < 1024 { return "\(bytes) byte\(bytes == 1 ? "" : "s")" }
        if bytes < 1024 * 1024 { return "\(bytes / 1024) kB" }
        let tenths = (bytes * 10 + 512 * 1024) / (1024 * 1024)
        return "\(tenths / 10).\(tenths % 10) MB (\(bytes) bytes)"
    }
}

extension Int {
    /// `10,000`: digits grouped in threes by `separator`.
    func formatted(grouping separator: String) -> String {
        let digits = String(magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out += separator }
            out.append(digit)
        }
        return (self < 0 ? "-" : "") + out
    }
}
