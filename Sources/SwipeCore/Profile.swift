/// One person in the deck, keyed by the stable external `id` from the CSV.
///
/// This is plain data: SwipeStore reads and writes it, the deck carries it in
/// its slots, and renderers show it. JSON keys match `swipe profiles`.
public struct Profile: Hashable, Sendable, Codable {
    public var id: String
    public var name: String
    public var age: Int
    public var gender: String?
    public var city: String?
    public var bio: String?
    public var photos: [String]
    public var interests: [String]
    /// Where the profile is, WGS84 degrees; nil when unknown.
    public var location: Location?
    /// Who the profile wants to see (README "Discovery"); the default is everyone.
    public var preferences: Preferences

    public init(
        id: String, name: String, age: Int, gender: String? = nil, city: String? = nil,
        bio: String? = nil, photos: [String] = [], interests: [String] = [],
        location: Location? = nil, preferences: Preferences = Preferences()
    ) {
        self.location = location
        self.preferences = preferences
        self.id = id
        self.name = name
        self.age = age
        self.gender = gender
        self.city = city
        self.bio = bio
        self.photos = photos
        self.interests = interests
    }
}

/// A point on Earth, WGS84 degrees.
public struct Location: Hashable, Sendable, Codable {
    public var lat: Double
    public var lon: Double

    public init(lat: Double, lon: Double) {
        self.lat = lat
        self.lon = lon
    }
}

/// Whom a profile wants to see: genders (empty is everyone), an age window
/// and a farthest distance (nil is no limit).
public struct Preferences: Hashable, Sendable, Codable {
    /// Trimmed and lower-cased genders; empty means everyone.
    public var seeking: [String]
    public var ageMin: Int
    public var ageMax: Int
    public var maxKm: Double?

    public init(seeking: [String] = [], ageMin: Int = 18, ageMax: Int = 120, maxKm: Double? = nil) {
        self.seeking = seeking
        self.ageMin = ageMin
        self.ageMax = ageMax
        self.maxKm = maxKm
    }
}
