/// Which profiles `SQLiteStore.forEachProfile(_:_:)` reads: a city, an age range,
/// and a page of the feed's order (internal key).
public struct ProfileQuery: Hashable, Sendable {
    /// Only profiles in this city (ASCII letters compared without case).
    public var city: String?
    /// Only profiles whose age is within this range.
    public var ages: ClosedRange<Int>?
    /// At most this many (after `offset`).
    public var limit: Int?
    /// Skip this many of the matching profiles first.
    public var offset: Int

    public init(city: String? = nil, ages: ClosedRange<Int>? = nil, limit: Int? = nil, offset: Int = 0) {
        self.city = city
        self.ages = ages
        self.limit = limit
        self.offset = offset
    }

    /// Every profile.
    public static let all = ProfileQuery()
}
