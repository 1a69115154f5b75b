import SwipeStore

/// The profiles of a CSV file parsed once, up front, into the exact values
/// `swipe import` binds (trimmed fields, NULL for empty optionals, photos and
/// interests as JSON arrays), packed in one byte buffer: the input of the
/// raw C-API insert loop, the floor no importer can beat.
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
        let reader = try CSVReader(path: path)
        guard let header = try reader.next() else { throw BenchError("\(path) is empty") }
        let column = Dictionary(uniqueKeysWithValues: header.fields.enumerated().map { ($1, $0) })
        while let record = try reader.next() {
            func field(_ name: String) -> String {
                column[name].map { trimmed(record.fields[$0]) } ?? ""
            }
            func list(_ name: String) -> String {
                JSONText.array(field(name).split(separator: ";").map { trimmed(String($0)) }.filter { !$0.isEmpty })
            }
            guard let age = Int(field("age")) else { throw BenchError("\(path): bad age on line \(record.line)") }
            ages.append(age)
            let bio = column["bio"].map { record.fields[$0] } ?? ""
            for text in [field("id"), field("name"), field("gender"), field("city")] { append(text, nullIfEmpty: true) }
            append(trimmed(bio).isEmpty ? "" : bio, nullIfEmpty: true)
            append(list("photos"), nullIfEmpty: false)
            append(list("interests"), nullIfEmpty: false)
        }
    }

    private mutating func append(_ text: String, nullIfEmpty: Bool) {
        guard !(nullIfEmpty && text.isEmpty) else {
            spans.append(Span(start: 0, count: -1))
            return
        }
        spans.append(Span(start: bytes.count, count: text.utf8.count))
        bytes.append(contentsOf: text.utf8)
    }

    private func trimmed(_ text: String) -> String {
        var scalars = Substring(text)
        while scalars.first == " " || scalars.first == "\t" { scalars.removeFirst() }
        while scalars.last == " " || scalars.last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}
