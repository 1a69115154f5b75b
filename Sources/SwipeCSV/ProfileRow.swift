import Foundation
import SwipeCore
import SwipeStore

/// A profile's column values as UTF-8 in one reusable buffer, bound to a
/// backend's statements (or COPY) without a copy or a `String` per column.
package struct ProfileRow {
    package init() {}

    /// The text columns in order, each appended by `appendText`/`appendNull`.
    package enum Column: Int, CaseIterable { case id, name, gender, city, bio, photos, interests, seeking }

    /// Parameters per row, in `SQLiteStore.profileColumns` order.
    package static let parameterCount: Int32 = 14

    /// The text columns' bytes, one after the other.
    package var bytes: [UInt8] = []
    /// Each text column's range in `bytes`, or nil for NULL.
    package private(set) var texts: [Range<Int>?] = []
    package var age = 0
    package var lat: Double?
    package var lon: Double?
    package var ageMin = 18
    package var ageMax = 120
    package var maxKm: Double?
    /// Where the column being appended starts in `bytes`.
    package private(set) var lastEnd = 0
    /// What the row's photo files and stored photos need once it is written
    /// (`ProfilePhotos`); empty for a list of URLs.
    package var photoPending: [ProfilePhotos.Pending] = []

    /// Empties the row, keeping its storage for the next one.
    package mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        texts.removeAll(keepingCapacity: true)
        lastEnd = 0
        lat = nil
        lon = nil
        ageMin = 18
        ageMax = 120
        maxKm = nil
        if !photoPending.isEmpty { photoPending.removeAll() }
    }

    /// Ends the next text column with the bytes appended to `bytes` since the
    /// previous one ended, and a NUL after them (see `run`).
    package mutating func endText() {
        texts.append(lastEnd..<bytes.count)
        bytes.append(0)
        lastEnd = bytes.count
    }

    /// Makes the next text column NULL.
    package mutating func appendNull() { texts.append(nil) }

    /// Appends `profile`'s columns.
    package mutating func append(_ profile: Profile) {
        func text(_ value: String?) {
            guard let value else { return appendNull() }
            bytes += value.utf8
            endText()
        }
        text(profile.id)
        text(profile.name)
        age = profile.age
        text(profile.gender)
        text(profile.city)
        text(profile.bio)
        text(JSONText.array(profile.photos))
        text(JSONText.array(profile.interests))
        let preferences = profile.preferences
        let seeking = Discovery.seeking(fromList: preferences.seeking.joined(separator: ";"))
        text(seeking.isEmpty ? nil : seeking.joined(separator: ";"))
        lat = profile.location?.lat
        lon = profile.location?.lon
        ageMin = preferences.ageMin
        ageMax = preferences.ageMax
        maxKm = preferences.maxKm
    }

    /// The column's text, or nil for NULL (for errors and tests).
    package func text(_ column: Column) -> String? {
        texts[column.rawValue].map { String(decoding: bytes[$0], as: UTF8.self) }
    }
}
