import Foundation
import SwipeCore

/// A change to a viewer's preferences: nil leaves a field as it is.
public struct PreferencesChange: Hashable, Sendable {
    /// The genders to see (gender keys); empty is everyone.
    public var seeking: [String]?
    public var ages: ClosedRange<Int>?
    /// `.some(nil)` removes the limit.
    public var maxKm: Double??
    /// `.some(nil)` removes the location.
    public var location: Location??

    public init(seeking: [String]? = nil, ages: ClosedRange<Int>? = nil, maxKm: Double?? = nil, location: Location?? = nil) {
        self.seeking = seeking
        self.ages = ages
        self.maxKm = maxKm
        self.location = location
    }

    public var isEmpty: Bool { seeking == nil && ages == nil && maxKm == nil && location == nil }

    /// `f;m` (any spacing and case) or `any` / `everyone` / empty for everyone.
    public static func seeking(_ text: String) -> [String] {
        ["any", "everyone", "all"].contains(text.trimmed().lowercased()) ? [] : Discovery.seeking(fromList: text)
    }

    /// `25-35`: whole numbers from 18 to 120, the first not above the second.
    public static func ages(_ text: String) throws -> ClosedRange<Int> {
        let parts = text.trimmed().split(separator: "-", omittingEmptySubsequences: false)
        let expected = "two ages from 18 to 120, the lower first, as MIN-MAX (e.g. 25-35)"
        guard parts.count == 2, let low = Int(String(parts[0]).trimmed()), let high = Int(String(parts[1]).trimmed()),
              (18...120).contains(low), (18...120).contains(high), low <= high
        else { throw StoreError.invalidValue(name: "the age range", value: text, expected: expected) }
        return low...high
    }

    /// A distance in km above 0, or `off` (`none`, `any`) for no limit.
    public static func maxKm(_ text: String) throws -> Double? {
        let trimmed = text.trimmed()
        if ["off", "none", "any"].contains(trimmed.lowercased()) { return nil }
        guard let km = PlainDecimal.value(trimmed), km.isFinite, km > 0 else {
            throw StoreError.invalidValue(name: "the farthest distance", value: text,
                                          expected: "a number of km above 0, or off for no limit")
        }
        return km
    }

    /// `LAT LON` or `LAT,LON` in degrees, or `none` to forget the location.
    public static func location(_ text: String) throws -> Location? {
        let trimmed = text.trimmed()
        if trimmed.lowercased() == "none" { return nil }
        let parts = trimmed.split(whereSeparator: { $0 == "," || $0 == " " })
        guard parts.count == 2, let lat = PlainDecimal.value(String(parts[0])), let lon = PlainDecimal.value(String(parts[1])),
              lat.isFinite, lon.isFinite, (-90...90).contains(lat), (-180...180).contains(lon)
        else {
            throw StoreError.invalidValue(
                name: "the location", value: text,
                expected: "LAT,LON in degrees, latitude from -90 to 90 and longitude from -180 to 180 (e.g. 52.52,13.40), or none")
        }
        return Location(lat: lat, lon: lon)
    }
}

extension Store {
    /// Applies `change` to `viewer`'s preferences and returns the profile as
    /// it now is. Feeds that passed over profiles for the old preferences
    /// (the viewer's, and every feed that judged the viewer by them) look again.
    ///
    /// - Throws: `StoreError.unknownProfile`, `StoreError.invalidValue`.
    @discardableResult
    public func setPreferences(viewer: String, _ change: PreferencesChange) throws -> Profile {
        if let ages = change.ages, !(18...120).contains(ages.lowerBound) || !(18...120).contains(ages.upperBound) {
            throw StoreError.invalidValue(name: "the age range", value: "\(ages.lowerBound)-\(ages.upperBound)",
                                          expected: "two ages from 18 to 120")
        }
        if case .some(.some(let km)) = change.maxKm, !(km.isFinite && km > 0) {
            throw StoreError.invalidValue(name: "the farthest distance", value: "\(km)", expected: "a number of km above 0")
        }
        return try connection.writeTransaction {
            let key = try requireKey(viewer)
            guard var profile = try profile(id: viewer) else { throw StoreError.unknownProfile(viewer) }
            if let seeking = change.seeking { profile.preferences.seeking = seeking.map(Discovery.genderKey).filter { !$0.isEmpty } }
            if let ages = change.ages { (profile.preferences.ageMin, profile.preferences.ageMax) = (ages.lowerBound, ages.upperBound) }
            if let maxKm = change.maxKm { profile.preferences.maxKm = maxKm }
            if let location = change.location { profile.location = location }
            let preferences = profile.preferences
            try connection.statement("""
                UPDATE profiles SET seeking = ?2, age_min = ?3, age_max = ?4, max_km = ?5, lat = ?6, lon = ?7
                WHERE key = ?1
                """).bind(.int(key), preferences.seeking.isEmpty ? .null : .text(preferences.seeking.joined(separator: ";")),
                          .int(preferences.ageMin), .int(preferences.ageMax),
                          preferences.maxKm.map(SQLiteValue.real) ?? .null,
                          profile.location.map { .real($0.lat) } ?? .null, profile.location.map { .real($0.lon) } ?? .null)
                .run()
            try forgetFeedPositions(around: key)
            return profile
        }
    }

    /// Feeds resume from a cursor past profiles they judged ineligible:
    /// after a change to `key`'s preferences or place, `key`'s own feed
    /// starts again and every other feed looks at `key` again.
    func forgetFeedPositions(around key: Int) throws {
        try connection.statement("DELETE FROM feed_cursors WHERE viewer = ?1").bind(.int(key)).run()
        try connection.statement("DELETE FROM liker_cursors WHERE viewer = ?1").bind(.int(key)).run()
        // Those `key` likes may now find `key` eligible among their likers.
        try connection.statement("""
            DELETE FROM liker_cursors WHERE viewer IN
                (SELECT profile FROM decisions WHERE viewer = ?1 AND undone_at IS NULL AND decision <> 'hate')
            """).bind(.int(key)).run()
        try connection.statement("UPDATE feed_cursors SET after_key = ?1 - 1 WHERE after_key >= ?1")
            .bind(.int(key)).run()
    }
}
