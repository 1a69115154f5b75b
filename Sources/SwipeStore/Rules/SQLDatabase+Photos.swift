import Foundation
import SwipeCore

/// Photos (Documentation/Photos.md): a profile's `photos` list is the one
/// order of its photos; an item `/photos/ID` names a row of `photos`, which
/// holds the bytes. Every rule that changes the list writes the rows in the
/// same transaction, so a listed stored photo always has its row and a row
/// always has its item.
extension SQLDatabase {
    /// Adds `source` at the end of `viewer`'s photos and returns the profile as stored.
    ///
    /// - Throws: `StoreError.photoRefused` (`.tooMany`, `.duplicate`,
    ///   `.notAllowed` for a URL that is not https), `.unknownProfile`.
    @discardableResult
    public func addPhoto(viewer: String, _ source: PhotoSource, at date: Date? = nil) throws -> Profile {
        let now = Timestamp.string(from: date ?? Date())
        return try write {
            let (key, profile) = try lockedOwnProfile(viewer)
            var list = profile.photos
            guard list.count < PhotoLimits.maximumCount else {
                throw StoreError.photoRefused(.tooMany(limit: PhotoLimits.maximumCount))
            }
            let item: String
            switch source {
            case .url(let url):
                guard case .url = PhotoItem(url) else { throw StoreError.photoRefused(.notAllowed(value: url)) }
                item = url
            case .bytes(let photo):
                let id = PhotoID.make(secret: try executor.photoSecret(), profile: viewer, sha256: photo.sha256)
                item = PhotoItem.path(id: id)
                if let at = list.firstIndex(of: item) { throw StoreError.photoRefused(.duplicate(position: at + 1)) }
                try executor.insertPhoto(id: id, profile: key, photo, at: now)
            }
            if let at = list.firstIndex(of: item) { throw StoreError.photoRefused(.duplicate(position: at + 1)) }
            list.append(item)
            return try setPhotos(list, of: key, profile)
        }
    }

    /// Removes photo `position` (1-based) of `viewer`'s, and its bytes when stored.
    ///
    /// - Throws: `StoreError.photoRefused(.noSuchPhoto)`, `.unknownProfile`.
    @discardableResult
    public func removePhoto(viewer: String, position: Int) throws -> Profile {
        try write { try removePhotoLocked(viewer: viewer, position: position) }
    }

    /// `removePhoto` inside a write already open (a moderator's `remove-photo` too).
    package func removePhotoLocked(viewer: String, position: Int) throws -> Profile {
        let (key, profile) = try lockedOwnProfile(viewer)
        var list = profile.photos
        guard (1...max(1, list.count)).contains(position), !list.isEmpty else {
            throw StoreError.photoRefused(.noSuchPhoto(position: position, count: list.count))
        }
        let removed = list.remove(at: position - 1)
        if case .stored(let id) = PhotoItem(removed) {
            try executor.run("DELETE FROM photos WHERE id = $1 AND profile = $2", [.text(id), .int(key)])
        }
        return try setPhotos(list, of: key, profile)
    }

    /// Moves photo `from` to position `to` (both 1-based): the others keep their order.
    ///
    /// - Throws: `StoreError.photoRefused(.noSuchPhoto)`, `.unknownProfile`.
    @discardableResult
    public func movePhoto(viewer: String, from: Int, to: Int) throws -> Profile {
        try write {
            let (key, profile) = try lockedOwnProfile(viewer)
            var list = profile.photos
            for position in [from, to] where !(1...list.count).contains(position) || list.isEmpty {
                throw StoreError.photoRefused(.noSuchPhoto(position: position, count: list.count))
            }
            list.insert(list.remove(at: from - 1), at: to - 1)
            return try setPhotos(list, of: key, profile)
        }
    }

    /// The stored photo `id` as `viewer` may load it, or nil: when there is
    /// no such photo, or a block stands between the viewer and its owner
    /// either way (the same answer, so a blocked person learns nothing). The
    /// bytes are left unread when `unlessSHA256` is their hash (the
    /// client's copy is current).
    public func servedPhoto(id: String, viewer: String, unlessSHA256 current: String? = nil) throws -> ServedPhoto? {
        guard PhotoID.isWellFormed(id) else { return nil }
        return try read {
            guard let me = try profileKey(id: viewer),
                let head = try executor.first(
                    Self.servedPhotoSQL, [.text(id), .int(me)],
                    { row in
                        (
                            key: try row.int("key"), type: try row.text("media_type"), sha: try row.text("sha256"),
                            size: try row.int("byte_size"), owner: try row.text("owner"), known: try row.int("known")
                        )
                    }),
                let type = PhotoMediaType(rawValue: head.type)
            else { return nil }
            var photo = ServedPhoto(
                mediaType: type, sha256: head.sha, byteSize: head.size, bytes: nil, owner: head.owner,
                isKnownToViewer: head.known != 0)
            if current != head.sha {
                photo.bytes = try executor.first("SELECT bytes FROM photos WHERE key = $1", [.int(head.key)]) {
                    try $0.blob("bytes")
                }
            }
            return photo
        }
    }

    /// The photo secret, made first if need be, in a write of its own.
    public func makePhotoSecret() throws -> String {
        try write { try executor.photoSecret() }
    }

    /// Sets profile `key`'s list to `list` (inside a write) and returns the profile so.
    private func setPhotos(_ list: [String], of key: Int, _ profile: Profile) throws -> Profile {
        try executor.run("UPDATE profiles SET photos = $1 WHERE key = $2", [.text(JSONText.array(list)), .int(key)])
        var changed = profile
        changed.photos = list
        return changed
    }

    /// The viewer's key and profile, their writes serialised (inside a write).
    private func lockedOwnProfile(_ viewer: String) throws -> (Int, Profile) {
        let key = try requireKey(viewer)
        try executor.lockViewer(key)
        guard let profile = try profile(key: key) else { throw StoreError.unknownProfile(viewer) }
        return (key, profile)
    }

    /// A photo's head, for a viewer with key `$2`: its own, or one whose
    /// owner and the viewer have no block between them either way; `known`
    /// is 1 when the viewer knows the owner by a standing tie (their own, a
    /// standing match, or the owner is among the viewer's likers as `likes`
    /// lists them: a standing like or superlike the viewer has not decided).
    static var servedPhotoSQL: String {
        """
        SELECT ph.key, ph.media_type, ph.sha256, ph.byte_size, o.id AS owner,
               CASE WHEN ph.profile = $2
                      OR EXISTS (SELECT 1 FROM matches AS m
                                 WHERE m.low = (CASE WHEN ph.profile < $2 THEN ph.profile ELSE $2 END)
                                   AND m.high = (CASE WHEN ph.profile < $2 THEN $2 ELSE ph.profile END)
                                   AND m.unmatched_at IS NULL)
                      OR (EXISTS (SELECT 1 FROM decisions AS d
                                  WHERE d.viewer = ph.profile AND d.profile = $2 AND d.undone_at IS NULL
                                    AND d.decision IN ('like', 'superlike'))
                          AND NOT EXISTS (SELECT 1 FROM decisions AS d
                                          WHERE d.viewer = $2 AND d.profile = ph.profile AND d.undone_at IS NULL))
                    THEN 1 ELSE 0 END AS known
        FROM photos AS ph JOIN profiles AS o ON o.key = ph.profile
        WHERE ph.id = $1
          AND (ph.profile = $2
               OR NOT EXISTS (SELECT 1 FROM blocks AS b
                              WHERE (b.blocker = $2 AND b.blocked = ph.profile)
                                 OR (b.blocker = ph.profile AND b.blocked = $2)))
        """
    }
}

/// The writes of photos that an import shares with the rules, on any
/// connection (the importers hold a connection, not a store).
extension SQLExecutor {
    /// The secret stored photos' ids are made with (`PhotoID`): 32 random
    /// bytes as hex in `settings`, made on first use (`given`, when the
    /// caller already drew one) and never changed (a new one would change
    /// every stored photo's path). Inside a write.
    package func photoSecret(given: String? = nil) throws -> String {
        if let stored = try first(
            "SELECT value FROM settings WHERE name = 'photo_secret'", [],
            {
                try $0.text("value")
            })
        {
            return stored
        }
        let hex = given ?? PhotoID.newSecret()
        try run(
            "INSERT INTO settings (name, value) VALUES ('photo_secret', $1) ON CONFLICT (name) DO NOTHING", [.text(hex)]
        )
        return try first("SELECT value FROM settings WHERE name = 'photo_secret'", []) { try $0.text("value") }
            ?? hex
    }

    /// Stores `photo` as `id` of profile `key`, unless that row exists (the
    /// same photo of the same person). Inside a write.
    package func insertPhoto(id: String, profile key: Int, _ photo: PhotoBytes, at now: String) throws {
        try run(
            """
            INSERT INTO photos (id, profile, media_type, bytes, sha256, byte_size, created_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING
            """,
            [
                .text(id), .int(key), .text(photo.mediaType.rawValue), .blob(photo.bytes), .text(photo.sha256),
                .int(photo.bytes.count), .text(now),
            ])
    }

    /// Whether profile `key` has the stored photo `id`.
    package func hasPhoto(id: String, profile key: Int) throws -> Bool {
        try exists("SELECT 1 FROM photos WHERE id = $1 AND profile = $2", [.text(id), .int(key)])
    }

    /// Deletes the stored photos no list names any more (after an import
    /// replaced lists). Inside a write. Returns how many went.
    @discardableResult
    package func deleteUnlistedPhotos() throws -> Int {
        let owners = try all("SELECT DISTINCT profile FROM photos", []) { try $0.int("profile") }
        var deleted = 0
        for key in owners {
            guard
                let list = try first(
                    "SELECT photos FROM profiles WHERE key = $1", [.int(key)], { try $0.text("photos") })
            else { continue }
            let listed = Set(
                (JSONText.strings(fromArray: list) ?? []).compactMap { item -> String? in
                    if case .stored(let id) = PhotoItem(item) { return id } else { return nil }
                })
            let ids = try all("SELECT id FROM photos WHERE profile = $1", [.int(key)]) { try $0.text("id") }
            for id in ids where !listed.contains(id) {
                deleted += try run("DELETE FROM photos WHERE id = $1", [.text(id)])
            }
        }
        return deleted
    }
}
