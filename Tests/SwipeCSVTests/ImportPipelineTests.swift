import Foundation
import SwipeTestSupport
import Testing

@testable import SwipeCSV
@testable import SwipeSQLite
@testable import SwipeStore

/// The reading thread hands records over in file order, batch after batch,
/// with their lines and row problems, then what stopped it; and it can be
/// stopped half-way without a hang.
@Suite struct ImportPipelineTests {
    let folder = TemporaryFolder()

    /// Every record's line, field count check and `prepare` result, drained from a pipeline.
    func drain(_ pipeline: ImportPipeline<String>) throws -> [(line: Int, row: String, issue: String?)] {
        defer { pipeline.finish() }
        var out: [(line: Int, row: String, issue: String?)] = []
        while let batch = try pipeline.next() {
            for slot in batch.slots[..<batch.count] {
                out.append((slot.record.line, slot.row, slot.issue?.message))
            }
            pipeline.recycle(batch)
        }
        return out
    }

    func pipeline(_ text: String, batchSize: Int, depth: Int) throws -> ImportPipeline<String> {
        let reader = try CSVReader(path: folder.file("in.csv", text), bufferSize: 16)
        _ = try reader.next()  // the header
        return ImportPipeline(reader: reader, fields: 2, batchSize: batchSize, depth: depth, makeRow: { "" }) {
            record, row in
            if record.string(1) == "bad" {
                throw SQLiteImporter.RowIssue(column: "b", value: "bad", message: "bad row")
            }
            row = record.string(0)
        }
    }

    @Test func recordsArriveInFileOrderAcrossManySmallBatches() throws {
        // Row n is on line n + 1, except that row 50's quoted field spans two lines.
        var text = "a,b\n"
        for row in 1...200 { text += row == 50 ? "r50,\"two\nlines\"\n" : "r\(row),x\n" }
        for (batchSize, depth) in [(1, 1), (3, 2), (7, 4), (256, 8)] {
            let got = try drain(pipeline(text, batchSize: batchSize, depth: depth))
            #expect(got.map(\.row) == (1...200).map { "r\($0)" }, "batch \(batchSize), depth \(depth)")
            #expect(got.map(\.line) == (1...200).map { $0 <= 50 ? $0 + 1 : $0 + 2 })
            #expect(got.allSatisfy { $0.issue == nil })
        }
    }

    @Test func rowProblemsStayWithTheirRecords() throws {
        let text = "a,b\nr1,x\nr2,bad\nr3\nr4,x,extra\nr5,x\n"
        let got = try drain(pipeline(text, batchSize: 2, depth: 2))
        #expect(got.map(\.line) == [2, 3, 4, 5, 6])
        #expect(
            got.map(\.issue) == [
                nil, "bad row", "has 1 fields, the header has 2", "has 3 fields, the header has 2", nil,
            ])
        #expect(got.map(\.row).first == "r1" && got.map(\.row).last == "r5")
    }

    @Test func aBrokenFileDeliversTheRecordsBeforeItThenItsError() throws {
        let bytes = Array("a,b\nr1,x\nr2,x\nr3,x\nr4,".utf8) + [0xFF] + Array("\nr5,x\n".utf8)
        let path = folder.file("broken.csv", bytes)
        let reader = try CSVReader(path: path)
        _ = try reader.next()
        let pipeline = ImportPipeline(reader: reader, fields: 2, batchSize: 2, depth: 1, makeRow: { "" }) {
            record, row in
            row = record.string(0)
        }
        defer { pipeline.finish() }
        var rows: [String] = []
        do {
            while let batch = try pipeline.next() {
                rows += batch.slots[..<batch.count].map(\.row)
                pipeline.recycle(batch)
            }
            Issue.record("the invalid UTF-8 on line 5 went unreported")
        } catch let error as CSVError {
            #expect(error == .invalidUTF8(file: path, line: 5))
        }
        #expect(rows == ["r1", "r2", "r3"])
    }

    /// The writer gives up after one batch (an error, Ctrl-C): `finish` stops a
    /// reader that is blocked waiting for a free batch, and returns.
    @Test(.timeLimit(.minutes(1))) func finishStopsAReaderThatIsStillReading() throws {
        var text = "a,b\n"
        for row in 1...5_000 { text += "r\(row),x\n" }
        let pipeline = try pipeline(text, batchSize: 4, depth: 1)
        let first = try #require(try pipeline.next())
        #expect(first.slots[..<first.count].map(\.row) == ["r1", "r2", "r3", "r4"])
        pipeline.finish()
        pipeline.finish()  // idempotent: every path out of the importer calls it
    }
}
