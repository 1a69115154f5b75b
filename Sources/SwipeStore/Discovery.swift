import Foundation
import SwipeCore

/// The arithmetic of discovery (README "Discovery"), shared by the feed,
/// the importer and `prefs`: how genders compare, how far two places are,
/// and the box of latitudes and longitudes that holds every place within a
/// distance.
public enum Discovery {
    /// The mean Earth radius (IUGG), km: the contract's R.
    public static let earthRadiusKm = 6371.0088

    /// A gender as compared: trimmed, ASCII letters lower-cased (SQLite's
    /// `lower()` folds ASCII only, and both sides must fold alike).
    public static func genderKey(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.trimmed().unicodeScalars.map { scalar in
                    ("A"..."Z").contains(scalar) ? Unicode.Scalar(scalar.value + 32)! : scalar
                }))
    }

    /// A `;`-separated list of genders as stored: each item a `genderKey`,
    /// blanks and repeats dropped, first spelling first. Empty is everyone.
    public static func seeking(fromList list: String) -> [String] {
        var seen: Set<String> = []
        return list.split(separator: ";", omittingEmptySubsequences: false)
            .map { genderKey(String($0)) }
            .filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    /// The great-circle distance by haversine, km.
    public static func distanceKm(_ a: Location, _ b: Location) -> Double {
        let radians = Double.pi / 180
        let dLat = (b.lat - a.lat) * radians, dLon = (b.lon - a.lon) * radians
        let h =
            sin(dLat / 2) * sin(dLat / 2)
            + cos(a.lat * radians) * cos(b.lat * radians) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * earthRadiusKm * asin(min(1, h.squareRoot()))
    }

    /// Latitudes and longitudes (degrees) that hold every place within some
    /// distance of a centre, slightly generous so rounding never cuts a place
    /// exactly at the distance. `lons` has one range, or two when the box
    /// crosses the antimeridian; nil means every longitude.
    public struct Box: Hashable, Sendable {
        public var lats: ClosedRange<Double>
        public var lons: [ClosedRange<Double>]?
    }

    /// The 1-degree cells (`profiles_cell`'s numbers) that cover `box`, or
    /// nil when the box spans every longitude, crosses the antimeridian or
    /// covers more than `limit` cells.
    public static func cells(covering box: Box, limit: Int = 64) -> [Int]? {
        guard let lons = box.lons, lons.count == 1 else { return nil }
        let lats = Int(box.lats.lowerBound + 90)...Int(box.lats.upperBound + 90)
        let lonCells = Int(lons[0].lowerBound + 180)...Int(lons[0].upperBound + 180)
        guard lats.count * lonCells.count <= limit else { return nil }
        return lats.flatMap { lat in lonCells.map { lat * 1000 + $0 } }
    }

    /// The box around `centre` holding every place within `km`.
    public static func box(around centre: Location, km: Double) -> Box {
        let angle = km / earthRadiusKm  // radians of arc
        let degrees = 180 / Double.pi
        let slack = 1e-7 + km * 1e-9
        let latLow = centre.lat - angle * degrees - slack, latHigh = centre.lat + angle * degrees + slack
        let lats = max(-90, latLow)...min(90, latHigh)
        // Jan Matuschek's bound: the widest longitude a circle of this radius
        // reaches; it covers a pole (every longitude) when the cap does.
        let cosLat = cos(centre.lat * .pi / 180)
        guard latLow > -90, latHigh < 90, angle < .pi / 2, sin(angle) < cosLat else {
            return Box(lats: lats, lons: nil)
        }
        let half = asin(sin(angle) / cosLat) * degrees + slack
        guard half < 180 else { return Box(lats: lats, lons: nil) }
        let low = centre.lon - half, high = centre.lon + half
        if low < -180 { return Box(lats: lats, lons: [(low + 360)...180, -180...high]) }
        if high > 180 { return Box(lats: lats, lons: [low...180, -180...(high - 360)]) }
        return Box(lats: lats, lons: [low...high])
    }
}
