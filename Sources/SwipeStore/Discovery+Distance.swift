import SwipeCore

extension Discovery {
    /// The distance half of eligibility (README "Discovery"): where either
    /// side limits the distance, both have a location and their coarse
    /// distance (`coarseKm`: whole km between the centres of their cells,
    /// the distance the page shows) is within every limit. Never the exact
    /// distance: stepping one's place and max_km would pin a person to the
    /// exact boundary. Every backend's feed applies this same arithmetic to
    /// the rows its query returns, so a profile exactly at a limit is in on each.
    public static func withinDistance(viewer: Profile, candidate: Profile) -> Bool {
        let mine = viewer.preferences.maxKm, theirs = candidate.preferences.maxKm
        guard mine != nil || theirs != nil else { return true }
        guard let here = viewer.location, let there = candidate.location else { return false }
        // Viewer first: haversine's rounding need not be symmetric.
        let distance = Double(coarseKm(here, there))
        return distance <= (mine ?? .infinity) && distance <= (theirs ?? .infinity)
    }

    /// Whether a viewer with these preferences can see nobody at all: they
    /// limit the distance but have no location.
    public static func seesNobody(_ viewer: Profile) -> Bool {
        viewer.preferences.maxKm != nil && viewer.location == nil
    }
}

extension Discovery {
    /// The box holding every place the viewer's max_km can keep (by
    /// `coarseKm`), when they have one and a location: around the centre of
    /// the viewer's cell, `coarseSlackKm` wider than the limit.
    public static func box(of viewer: Profile) -> Box? {
        guard let maxKm = viewer.preferences.maxKm, let location = viewer.location else { return nil }
        return box(around: cell(of: location), km: maxKm + coarseSlackKm)
    }

    /// What a feed's query binds for `box`, in this order: the lowest and
    /// highest latitude, then two longitude ranges (low, high), the only one
    /// repeated when the box does not cross the antimeridian; without a box,
    /// the whole Earth.
    public static func boxBounds(_ box: Box?) -> [Double] {
        guard let box else { return [-90, 90, -180, 180, -180, 180] }
        let lons = box.lons ?? [-180...180]
        let second = lons.count > 1 ? lons[1] : lons[0]
        return [
            box.lats.lowerBound, box.lats.upperBound, lons[0].lowerBound, lons[0].upperBound,
            second.lowerBound, second.upperBound,
        ]
    }
}

extension Discovery {
    /// The profile's gender as compared (`genderKey`), nil when it has none
    /// or only blanks: such a profile passes only an empty `seeking`.
    public static func genderKey(of profile: Profile) -> String? {
        profile.gender.map { genderKey($0) }.flatMap { $0.isEmpty ? nil : $0 }
    }
}
