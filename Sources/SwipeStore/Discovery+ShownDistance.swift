import Foundation
import SwipeCore

extension Discovery {
    /// Height of a distance cell: 1/90 of a degree of latitude, about 1.24 km.
    public static let distanceCellDegrees = 1.0 / 90

    /// The distance another person is shown at ("4 km away"): whole km,
    /// never under 1, computed on the server; nil when either has no place.
    ///
    /// Both places are first snapped to the centre of their cell (`cell`),
    /// so the answer is the same for every point of a cell, whoever asks and
    /// from wherever: moving one's own place in small steps and watching the
    /// number change (trilateration) can narrow a person down to their cell,
    /// at least 1.2 km on a side, never to a point.
    public static func shownDistanceKm(from viewer: Location?, to other: Location?) -> Int? {
        guard let viewer, let other else { return nil }
        let km = distanceKm(cell(of: viewer), cell(of: other))
        return max(1, Int(km.rounded()))
    }

    /// The centre of the cell holding `location`. Rows are
    /// `distanceCellDegrees` of latitude high; each row is cut into whole
    /// cells about as wide as they are high (fewer towards the poles), so
    /// the cells tile the Earth without a seam at the antimeridian.
    public static func cell(of location: Location) -> Location {
        let height = distanceCellDegrees
        let rows = Int((180 / height).rounded())
        let row = min(rows - 1, max(0, Int(((location.lat + 90) / height).rounded(.down))))
        let lat = -90 + (Double(row) + 0.5) * height
        let columns = max(1, Int((360 * cos(lat * .pi / 180) / height).rounded(.down)))
        let width = 360 / Double(columns)
        var column = Int(((location.lon + 180) / width).rounded(.down)) % columns
        if column < 0 { column += columns }
        return Location(lat: lat, lon: -180 + (Double(column) + 0.5) * width)
    }
}
