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

    public init(
        id: String, name: String, age: Int, gender: String? = nil, city: String? = nil,
        bio: String? = nil, photos: [String] = [], interests: [String] = []
    ) {
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
