import Foundation

/// The proof that a stored photo was shown to a viewer: the query of the
/// photo's path as `swipe serve` hands it to that viewer (`/photos/ID?for=GRANT`),
/// with a card, a detail page or a list.
///
/// Why a grant and not "may be dealt now": a photo answered to whoever the
/// owner could be dealt to tells, by 200 or 404, whether the owner's
/// preferences admit the asker; a person who changes their own age and
/// gender and asks again reads the owner's private preferences back
/// (issue 36, defect 2). A grant is made only where the page shows the
/// owner, and never depends on anyone's preferences afterwards, so the
/// photo route answers the same whatever either person changes. A block
/// still hides the photo, grant or not (`servedPhotoSQL`).
///
/// A grant is the day it lapses and the first 32 hex digits of SHA-256
/// over the database's photo secret, the viewer's id, the photo's id and
/// that day (`20424-9f2c…`): stateless, so any of several servers over one
/// database checks it; bound to one viewer, so a path passed on to someone
/// else loads nothing for them; and short-lived, so a path kept in a
/// browser's history or a log stops loading within two days. A grant is
/// made afresh each time the owner is shown, so a page in use never meets
/// a lapsed one; a page left open for days reloads its cards.
public enum PhotoGrant {
    /// The query parameter that carries a grant.
    public static let parameter = "for"

    /// Whole days a grant made now stays good after today (so 24 to 48 hours).
    public static let daysGood = 1

    /// The day (whole days since 1970-01-01 UTC) `date` falls on.
    static func day(_ date: Date) -> Int { Int((date.timeIntervalSince1970 / 86_400).rounded(.down)) }

    /// The grant for `viewer` to load photo `id`, made at `now`: good through
    /// the end of the day `daysGood` days after.
    public static func make(secret: String, viewer: String, photo id: String, now: Date = Date()) -> String {
        let lapses = day(now) + daysGood
        return "\(lapses)-" + mac(secret: secret, viewer: viewer, photo: id, lapses: lapses)
    }

    private static func mac(secret: String, viewer: String, photo id: String, lapses: Int) -> String {
        let input = Array("swipe photo grant\u{0}\(secret)\u{0}\(viewer)\u{0}\(id)\u{0}\(lapses)".utf8)
        return String(PhotoBytes.hex(SHA256Digest.hash(input)).prefix(32))
    }

    /// Whether `grant` is one `viewer` was given for photo `id` and has not
    /// lapsed at `now` (the digests compared in time independent of where
    /// they differ).
    public static func isValid(_ grant: String, secret: String, viewer: String, photo id: String, now: Date = Date())
        -> Bool
    {
        let parts = grant.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].utf8.count <= 9, let lapses = Int(parts[0]), lapses >= day(now) else {
            return false
        }
        let expected = Array(mac(secret: secret, viewer: viewer, photo: id, lapses: lapses).utf8)
        let given = Array(parts[1].utf8)
        guard given.count == expected.count else { return false }
        return zip(given, expected).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// A profile's photo item as `viewer` is handed it at `now`: a stored
    /// photo's path with its grant; anything else (an `https://` URL) as it is.
    public static func path(_ item: String, secret: String, viewer: String, now: Date = Date()) -> String {
        guard case .stored(let id) = PhotoItem(item) else { return item }
        return item + "?\(parameter)=" + make(secret: secret, viewer: viewer, photo: id, now: now)
    }
}
