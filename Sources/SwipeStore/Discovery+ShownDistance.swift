import Foundation
import SwipeCore

extension Discovery {
    /// Height of a distance cell: 1/90 of a degree of latitude, about 1.24 km.
    public static let distanceCellDegrees = 1.0 / Double(cellsPerDegree)
    /// Rows of cells per degree of latitude.
    public static let cellsPerDegree = 90

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
        return max(1, coarseKm(viewer, other))
    }

    /// The distance discovery works with everywhere (eligibility against
    /// max_km, the ranking, `why`): whole km between the centres of both
    /// places' cells (`cell`), viewer first. It is the shown distance before
    /// its floor of 1, so for any max_km of 1 or more a person is eligible
    /// exactly when the distance they are shown at is within it; a limit
    /// under 1 km keeps those in the viewer's own cell.
    ///
    /// Being a function of the two cells only, stepping one's place in small
    /// steps and one's max_km through fine values learns a person's cell,
    /// never a point within it (issue 23, item 1).
    public static func coarseKm(_ viewer: Location, _ other: Location) -> Int {
        Int(distanceKm(cell(of: viewer), cell(of: other)).rounded())
    }

    /// How far a place can be from the centre of its cell, km, with room to
    /// spare: a cell is about 1.24 km on a side (up to twice as wide in the
    /// rows touching a pole), so no place lies 2.5 km from its centre.
    public static let cellReachKm = 2.5

    /// How much farther than the tighter max_km an eligible place can be from
    /// the centre of the viewer's cell: the rounding to whole km (under 0.5)
    /// and the place's own distance from its cell's centre (`cellReachKm`).
    /// The boxes and the queries that prefilter by distance widen by this,
    /// so they never drop a place `coarseKm` keeps.
    public static let coarseSlackKm = 0.5 + cellReachKm

    /// The centre of the cell holding `location`. Rows are
    /// `distanceCellDegrees` of latitude high; each row is cut into whole
    /// cells about as wide as they are high (fewer towards the poles), so
    /// the cells tile the Earth without a seam at the antimeridian.
    ///
    /// Multiplied by the whole number of rows per degree rather than divided
    /// by `distanceCellDegrees` (which 1/90 is not exactly): a latitude on
    /// a row's edge, such as 52.60, then falls in the row above it, as the
    /// decimal says, not in the one below by a rounding.
    public static func cell(of location: Location) -> Location {
        let perDegree = Double(cellsPerDegree)
        let rows = 180 * cellsPerDegree
        let row = min(rows - 1, max(0, Int(((location.lat + 90) * perDegree).rounded(.down))))
        let lat = -90 + (Double(row) + 0.5) / perDegree
        let columns = max(1, Int((360 * cos(lat * .pi / 180) * perDegree).rounded(.down)))
        let width = 360 / Double(columns)
        var column = Int(((location.lon + 180) / width).rounded(.down)) % columns
        if column < 0 { column += columns }
        return Location(lat: lat, lon: -180 + (Double(column) + 0.5) * width)
    }
}
