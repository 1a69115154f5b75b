import SwipeTestSupport
import Testing

@testable import SwipeCSV

/// `ProfileCSV.SeenIDs`, the repeated-id check of a profiles import, held to
/// a model: a dictionary from id to the first line that had it.
@Suite struct SeenIDsTests {
    private func row(id: String) -> ProfileRow {
        var row = ProfileRow()
        row.bytes += id.utf8
        row.endText()
        return row
    }

    /// Random ids from a small alphabet (so repeats are common), through
    /// growth from the first size to many times it: every repeat names the
    /// first line, every first sighting is accepted.
    @Test(arguments: [0, 1, 2, 3])
    func repeatsNameTheFirstLineAsAModelDoes(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        // A file size that suggests far fewer rows than come: the table must grow.
        let seen = ProfileCSV.SeenIDs(fileSize: 4_000)
        var model: [String: Int] = [:]
        for line in 2..<20_002 {
            let id = "p-\(generator.next() % 12_000)"
            let expected = model[id]
            do {
                try seen.insert(row(id: id), line: line, recordBytes: 40)
                #expect(expected == nil, "line \(line): \(id) first seen on \(expected ?? 0) was accepted")
                model[id] = line
            } catch let issue as CSVImport.RowIssue {
                #expect(issue.message == "id repeats line \(expected ?? -1); an id may appear once per file")
                #expect(issue.value == id)
            }
        }
        #expect(model.count > 8_000)
    }

    /// A file size that suggests many more rows than come (the table sized
    /// once, big) answers the same.
    @Test func aGenerousFirstSizeAnswersTheSame() throws {
        let seen = ProfileCSV.SeenIDs(fileSize: 50_000_000)
        for line in 2..<300 { try seen.insert(row(id: "id\(line)"), line: line, recordBytes: 40) }
        #expect(throws: CSVImport.RowIssue.self) { try seen.insert(row(id: "id257"), line: 400, recordBytes: 40) }
        #expect(throws: CSVImport.RowIssue.self) { try seen.insert(row(id: "id2"), line: 401, recordBytes: 40) }
        try seen.insert(row(id: "id300"), line: 402, recordBytes: 40)
    }
}
