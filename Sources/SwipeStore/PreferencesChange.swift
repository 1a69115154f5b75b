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

    public init(
        seeking: [String]? = nil, ages: ClosedRange<Int>? = nil, maxKm: Double?? = nil, location: Location?? = nil
    ) {
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
            throw StoreError.invalidValue(
                name: "the farthest distance", value: text,
                expected: "a number of km above 0, or off for no limit")
        }
        return km
    }

    /// `LAT LON` or `LAT,LON` in degrees, or `none` to forget the location.
    public static func location(_ text: String) throws -> Location? {
        let trimmed = text.trimmed()
        if trimmed.lowercased() == "none" { return nil }
        let parts = trimmed.split(whereSeparator: { $0 == "," || $0 == " " })
        guard parts.count == 2, let lat = PlainDecimal.value(String(parts[0])),
            let lon = PlainDecimal.value(String(parts[1])),
            lat.isFinite, lon.isFinite, (-90...90).contains(lat), (-180...180).contains(lon)
        else {
            throw StoreError.invalidValue(
                name: "the location", value: text,
                expected:
                    "LAT,LON in degrees, latitude from -90 to 90 and longitude from -180 to 180 (e.g. 52.52,13.40), or none"
            )
        }
        return Location(lat: lat, lon: lon)
    }

    /// Refuses values no backend stores (the parsers above already refuse
    /// them; a library caller may not have used them).
    ///
    /// - Throws: `StoreError.invalidValue`.
    public func validate() throws {
        if let ages, !(18...120).contains(ages.lowerBound) || !(18...120).contains(ages.upperBound) {
            throw StoreError.invalidValue(
                name: "the age range", value: "\(ages.lowerBound)-\(ages.upperBound)",
                expected: "two ages from 18 to 120")
        }
        if case .some(.some(let km)) = maxKm, !(km.isFinite && km > 0) {
            throw StoreError.invalidValue(
                name: "the farthest distance", value: "\(km)", expected: "a number of km above 0")
        }
    }

    /// `profile` with this change applied, as every backend stores it
    /// (genders as `Discovery.genderKey`, blanks dropped).
    public func applied(to profile: Profile) -> Profile {
        var profile = profile
        if let seeking { profile.preferences.seeking = seeking.map(Discovery.genderKey).filter { !$0.isEmpty } }
        if let ages { (profile.preferences.ageMin, profile.preferences.ageMax) = (ages.lowerBound, ages.upperBound) }
        if let maxKm { profile.preferences.maxKm = maxKm }
        if let location { profile.location = location }
        return profile
    }
}
