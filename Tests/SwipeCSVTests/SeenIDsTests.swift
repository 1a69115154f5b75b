import Foundation
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

    /// Rereading the file instead of keeping lines: a real file whose
    /// records span several lines (quoted line breaks), with padded ids and
    /// rows the import refused before noting them (their ids do not count),
    /// read as the importer reads it. Every answer is the model's, before
    /// and after the first repeat, and the same as when lines are kept.
    @Test(arguments: [0, 1, 2, 3, 4, 5])
    func rereadingTheFileAnswersAsKeepingLines(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed &+ 100)
        let folder = TemporaryFolder()
        var text = "id,bio,ok\r\n"
        for _ in 0..<3_000 {
            let id = "p-\(generator.next() % 2_500)"
            let padded = generator.next() % 5 == 0 ? "\" \(id)\t\"" : id
            let bio = generator.next() % 4 == 0 ? "\"two\nlines\"" : "one"
            let ok = generator.next() % 10 == 0 ? "no" : "yes"
            text += "\(padded),\(bio),\(ok)\r\n"
        }
        let path = folder.file("p.csv", text)
        let rereading = ProfileCSV.SeenIDs(fileSize: 4_000, rereading: path)
        let keeping = ProfileCSV.SeenIDs(fileSize: 4_000)
        var model: [String: Int] = [:]
        var repeats = 0
        let reader = try CSVReader(path: path)
        var record = CSVRawRecord()
        _ = try reader.next(into: &record)
        while try reader.next(into: &record) {
            guard record.string(2) == "yes" else { continue }  // refused before its id was noted
            var row = ProfileRow()
            record.bytes.withUnsafeBufferPointer {
                row.appendTrimmed(UnsafeBufferPointer(rebasing: $0[record.range(0)]))
            }
            row.endText()
            let id = row.text(.id)!
            let expected = model[id]
            for seen in [rereading, keeping] {
                do {
                    try seen.insert(row, line: record.line, recordBytes: 20, idField: 0)
                    #expect(expected == nil, "line \(record.line): \(id) first seen on \(expected ?? 0) was accepted")
                } catch let issue as CSVImport.RowIssue {
                    #expect(issue.message == "id repeats line \(expected ?? -1); an id may appear once per file")
                }
            }
            if expected == nil { model[id] = record.line } else { repeats += 1 }
        }
        #expect(repeats > 100 && model.count > 1_000)
    }

    /// Standard input cannot be read again: lines are kept.
    @Test func standardInputKeepsLines() throws {
        let seen = ProfileCSV.SeenIDs(fileSize: 0, rereading: CSVReader.standardInput)
        try seen.insert(row(id: "a"), line: 2, recordBytes: 40, idField: 0)
        let issue = #expect(throws: CSVImport.RowIssue.self) {
            try seen.insert(row(id: "a"), line: 3, recordBytes: 40, idField: 0)
        }
        #expect(issue?.message == "id repeats line 2; an id may appear once per file")
    }
}
