import Foundation
import SwipeTestSupport
import Testing

@testable import SwipeCSV
@testable import SwipeSQLite
@testable import SwipeStore

@Suite struct CSVReaderTests {
    let folder = TemporaryFolder()

    func records(_ text: String, bufferSize: Int = 1 << 16) throws -> [CSVRecord] {
        let reader = try CSVReader(path: folder.file("in.csv", text), bufferSize: bufferSize)
        var out: [CSVRecord] = []
        while let record = try reader.next() { out.append(record) }
        return out
    }

    func error(_ text: String) -> CSVError? {
        do {
            _ = try records(text)
            return nil
        } catch {
            return error as? CSVError
        }
    }

    @Test func plainRecordsWithLineNumbers() throws {
        let got = try records("a,b\n1,2\n")
        #expect(got == [CSVRecord(fields: ["a", "b"], line: 1), CSVRecord(fields: ["1", "2"], line: 2)])
    }

    @Test func quotedCommasDoubledQuotesAndNewlines() throws {
        let got = try records("id,bio\n1,\"Hi, I'm \"\"Ana\"\"\nsecond line\"\n2,x\n")
        #expect(got.map(\.fields) == [["id", "bio"], ["1", "Hi, I'm \"Ana\"\nsecond line"], ["2", "x"]])
        // The quoted newline is a physical line: record 2 starts on line 4.
        #expect(got.map(\.line) == [1, 2, 4])
    }

    @Test("a CRLF inside quotes is stored as LF, wherever the buffer splits it; a lone CR or LF stays")
    func crlfInsideQuotesBecomesLF() throws {
        let text = "id,bio\r\n1,\"one\r\ntwo\r\n\r\nthree\"\r\n2,\"cr\ronly\",\r\n3,\"lf\nonly \"\"q\"\"\r\n\"\r\n"
        for bufferSize in [4, 5, 6, 7, 8, 13, 1 << 16] {
            let got = try records(text, bufferSize: bufferSize)
            #expect(
                got.map(\.fields) == [
                    ["id", "bio"], ["1", "one\ntwo\n\nthree"], ["2", "cr\ronly", ""], ["3", "lf\nonly \"q\"\n"],
                ], "buffer \(bufferSize)")
            // Physical lines still count every break: 1 header, 2-5 record 1, 6-7 record 2 (a lone CR is a line too).
            #expect(got.map(\.line) == [1, 2, 6, 8], "buffer \(bufferSize)")
        }
    }

    @Test func crlfAndLoneCR() throws {
        #expect(try records("a,b\r\n1,2\r\n3,4").map(\.fields) == [["a", "b"], ["1", "2"], ["3", "4"]])
        #expect(try records("a,b\r\n1,2\r\n3,4").map(\.line) == [1, 2, 3])
        #expect(try records("a\rb\rc").map(\.line) == [1, 2, 3])
    }

    @Test func byteOrderMarkIsSkipped() throws {
        #expect(try records("\u{FEFF}id,name\n1,Ana").first?.fields == ["id", "name"])
    }

    @Test func noFinalNewlineAndEmptyTrailingField() throws {
        #expect(try records("a,b\n1,").map(\.fields) == [["a", "b"], ["1", ""]])
        #expect(try records("a,b\n1,\"\"").map(\.fields) == [["a", "b"], ["1", ""]])
    }

    @Test func blankLinesAreSkipped() throws {
        #expect(try records("a\n\n\nb\n").map(\.line) == [1, 4])
    }

    @Test func multiByteTextSurvivesBufferBoundaries() throws {
        // A 4-byte buffer splits every emoji and CJK character across refills.
        let got = try records("名前,bio\n王芳,\"🌸, \"\"quoted\"\"\"\n", bufferSize: 4)
        #expect(got.map(\.fields) == [["名前", "bio"], ["王芳", "🌸, \"quoted\""]])
    }

    @Test func unterminatedQuoteNamesTheLineItOpened() {
        // The quote opens on line 3 and the file ends on line 5.
        #expect(error("a,b\n1,2\n3,\"open\nstill\nopen") == .unterminatedQuote(file: folder.path + "/in.csv", line: 3))
    }

    @Test func junkAfterClosingQuoteNamesItsLine() {
        // The field opens on line 2; its closing quote and the junk are on line 3.
        #expect(error("a,b\n1,\"two\nlines\"x\n") == .junkAfterQuote(file: folder.path + "/in.csv", line: 3))
    }

    @Test func invalidUTF8IsAnError() {
        let path = folder.file("bad.csv", [0x61, 0x0A, 0xFF, 0xFE, 0x0A])
        #expect(throws: CSVError.invalidUTF8(file: path, line: 2)) {
            let reader = try CSVReader(path: path)
            while try reader.next() != nil {}
        }
    }

    @Test func missingFile() {
        #expect(throws: CSVError.notFound(path: "/nonexistent/x.csv")) { try CSVReader(path: "/nonexistent/x.csv") }
    }
}
