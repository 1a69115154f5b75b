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
/// A grant is the first 32 hex digits of SHA-256 over the database's photo
/// secret, the viewer's id and the photo's id: stateless, so any of several
/// servers over one database checks it, and bound to one viewer, so a path
/// passed on to someone else loads nothing for them.
public enum PhotoGrant {
    /// The query parameter that carries a grant.
    public static let parameter = "for"

    public static func make(secret: String, viewer: String, photo id: String) -> String {
        let input = Array("swipe photo grant\u{0}\(secret)\u{0}\(viewer)\u{0}\(id)".utf8)
        return String(PhotoBytes.hex(SHA256Digest.hash(input)).prefix(32))
    }

    /// Whether `grant` is the one `viewer` was given for photo `id`
    /// (compared in time independent of where they differ).
    public static func isValid(_ grant: String, secret: String, viewer: String, photo id: String) -> Bool {
        let expected = Array(make(secret: secret, viewer: viewer, photo: id).utf8)
        let given = Array(grant.utf8)
        guard given.count == expected.count else { return false }
        return zip(given, expected).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// A profile's photo item as `viewer` is handed it: a stored photo's
    /// path with its grant; anything else (an `https://` URL) as it is.
    public static func path(_ item: String, secret: String, viewer: String) -> String {
        guard case .stored(let id) = PhotoItem(item) else { return item }
        return item + "?\(parameter)=" + make(secret: secret, viewer: viewer, photo: id)
    }
}
