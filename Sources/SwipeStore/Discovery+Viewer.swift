import SwipeCore

extension Discovery {
    /// One viewer's side of discovery, read for one fetch, on any backend:
    /// who they are (`key`, `profile`), the box holding every place within
    /// their max_km, and the exact distance half of eligibility applied to
    /// the rows a backend's queries return. Each backend adds how it binds
    /// the viewer into its own SQL.
    public struct Viewer: Sendable {
        public let key: Int
        public let profile: Profile
        /// The box holding every place within the viewer's max_km, when they have one and a location.
        public let box: Box?

        public init(key: Int, profile: Profile) {
            self.key = key
            self.profile = profile
            box = Discovery.box(of: profile)
        }

        /// Nobody can be eligible: the viewer limits the distance but has no location.
        public var seesNobody: Bool { Discovery.seesNobody(profile) }

        /// The distance half of eligibility, exact (`Discovery.withinDistance`).
        public func accepts(_ candidate: Profile) -> Bool {
            Discovery.withinDistance(viewer: profile, candidate: candidate)
        }
    }
}
