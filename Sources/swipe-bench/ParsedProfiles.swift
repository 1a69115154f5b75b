import SwipeCSV
import SwipeSQLite
import SwipeStore

/// The profiles of a CSV file encoded once, up front, into the exact values
/// `swipe import` binds (`ProfileCSV.forEachEncodedProfile`: the importer's own
/// trimming, NULLs and JSON lists), packed in one byte buffer: the input of
/// the raw C-API insert loop, the floor no importer can beat.
struct ParsedProfiles {
    /// A text field: where its bytes start in `bytes` and how many; -1 is NULL.
    struct Span {
        var start: Int
        var count: Int
    }

    private(set) var bytes: [UInt8] = []
    /// Seven text spans per row (id, name, gender, city, bio, photos, interests).
    private(set) var spans: [Span] = []
    private(set) var ages: [Int] = []

    var count: Int { ages.count }

    init(path: String) throws {
        try ProfileCSV.forEachEncodedProfile(path: path) { texts, age in
            ages.append(age)
            for text in texts {
                guard let text else {
                    spans.append(Span(start: 0, count: -1))
                    continue
                }
                spans.append(Span(start: bytes.count, count: text.count))
                bytes.append(contentsOf: text)
            }
        }
    }
}
