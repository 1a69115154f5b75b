import Foundation
import SwipeCore
import SwipeTestSupport
import Testing

@testable import SwipeCSV
@testable import SwipeSQLite
@testable import SwipeStore

/// Hostile CSV: huge lines, NUL and control bytes, invalid UTF-8, numbers
/// that are not numbers. The reader and importer answer each with a value or
/// a typed error naming the line; nothing crashes, nothing is cut short.
@Suite struct HostileCSVImportTests {
    let stores = TestStores()
    var folder: TemporaryFolder { stores.folder }

    func records(_ path: String, bufferSize: Int = 1 << 16) throws -> [CSVRecord] {
        let reader = try CSVReader(path: path, bufferSize: bufferSize)
        var out: [CSVRecord] = []
        while let record = try reader.next() { out.append(record) }
        return out
    }

    @Test func aTenMegabyteLineIsOneRecord() throws {
        let huge = String(repeating: "0123456789", count: 1_048_576)  // 10 MiB
        let read = try records(folder.file("huge.csv", "id,name,age,bio\nh,Huge,30,\"\(huge)\"\nz,Z,31,\n"))
        #expect(read.map(\.line) == [1, 2, 3])
        #expect(read[1].fields[3].utf8.count == 10_485_760)
        #expect(read[1].fields[3] == huge)
    }

    /// A one-megabyte field is read whole, then refused by the bio's limit
    /// (issue 36: a 50 MB bio imported), naming its line and column, and
    /// nothing is stored; a bio of exactly 5,000 characters imports.
    @Test(arguments: TestBackend.all) func aOneMegabyteBioIsReadWholeAndRefusedByItsLimit(_ backend: TestBackend) throws
    {
        let big = String(repeating: "é,\"x\"\n", count: 131_072)  // 7 bytes each in the file: 896 KiB
        let quoted = big.replacingOccurrences(of: "\"", with: "\"\"")
        let path = folder.file("big.csv", "id,name,age,bio\nh,Huge,30,\"\(quoted)\"\n")
        #expect(try records(path)[1].fields[3] == big)
        let store = try stores.store(backend)
        let failure = try #require(throws: ImportFailure.self) { try importing(store).importProfiles(path: path) }
        #expect(failure.issues.map(\.line) == [2])
        #expect(failure.issues.first?.column == "bio")
        #expect(
            failure.issues.first?.message.contains("bio is 786,432 characters, over the 5,000 a bio may be") == true,
            "\(failure.issues)")
        #expect(try store.stats().profiles == 0)
        // At the limit, in characters of two bytes each: imported whole.
        let atLimit = String(repeating: "é", count: 5_000)
        let fits = folder.file("fits.csv", "id,name,age,bio\nh,Huge,30,\(atLimit)\n")
        #expect(try importing(store).importProfiles(path: fits).inserted == 1)
        #expect(try store.profile(id: "h")?.bio == atLimit)
    }

    @Test(arguments: TestBackend.all) func nulAndControlBytesAreDataAndSurviveTheStore(_ backend: TestBackend) throws {
        let text: [UInt8] =
            Array("id,name,age,bio\nn,".utf8) + [0x41, 0x00, 0x42] + Array(",30,\"".utf8)
            + Array(0x01...0x1F).filter { $0 != 0x0A && $0 != 0x0D } + [0x7F, 0x00] + Array("\"\n".utf8)
        let read = try records(folder.file("nul.csv", text))
        #expect(read[1].fields[1] == "A\u{0}B")
        // 0x01…0x1F is 31 bytes, less LF and CR: 29; then DEL and NUL: 31.
        #expect(read[1].fields[3].unicodeScalars.count == 31)
        let store = try stores.store(backend)
        if backend == .postgres {
            // README "Profiles CSV": PostgreSQL text cannot hold a NUL; the
            // row is refused naming its line and column, and nothing is stored.
            let failure = try #require(throws: ImportFailure.self) {
                try importing(store).importProfiles(path: folder.path + "/nul.csv")
            }
            #expect(failure.issues.map(\.line) == [2])
            #expect(
                failure.issues.first?.message.hasSuffix("holds a NUL character, which PostgreSQL cannot store") == true)
            #expect(try store.stats().profiles == 0)
            return
        }
        _ = try importing(store).importProfiles(path: folder.path + "/nul.csv")
        let profile = try #require(try store.profile(id: "n"))
        #expect(profile.name == "A\u{0}B")
        #expect(profile.bio == read[1].fields[3])
    }

    @Test(arguments: TestBackend.all) func invalidUTF8NamesItsLine(_ backend: TestBackend) throws {
        for bad: [UInt8] in [[0xFF], [0xC3], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xC0, 0xAF]] {
            let path = folder.file("bad.csv", Array("id,name,age\nok,Ok,30\nx,".utf8) + bad + Array(",30\n".utf8))
            #expect(throws: CSVError.invalidUTF8(file: path, line: 3)) { try records(path) }
            let store = try stores.store(backend)
            #expect(throws: CSVError.invalidUTF8(file: path, line: 3)) {
                try importing(store).importProfiles(path: path)
            }
            #expect(try store.stats().profiles == 0)
        }
    }

    @Test(arguments: TestBackend.all) func numbersThatAreNotWholeAgesAreRejectedByColumn(_ backend: TestBackend) throws
    {
        let ages = [
            "nan", "NaN", "inf", "-inf", "Infinity", "1e308", "1e3", "0x1E", "30.0", "+", "-0", "٣٠",
            "9223372036854775808",
        ]
        let rows = ages.enumerated().map { "p\($0.offset),P,\($0.element)" }.joined(separator: "\n")
        let path = folder.file("ages.csv", "id,name,age\n" + rows + "\n")
        let store = try stores.store(backend)
        let failure = try #require(throws: ImportFailure.self) { try importing(store).importProfiles(path: path) }
        #expect(failure.total == ages.count)
        #expect(failure.issues.map(\.value) == ages)
        #expect(failure.issues.allSatisfy { $0.column == "age" })
    }

    @Test(arguments: TestBackend.all) func aHundredThousandFieldsOnOneLineIsARowError(_ backend: TestBackend) throws {
        let path = folder.file("wide.csv", "id,name,age\nw,W,30" + String(repeating: ",", count: 100_000) + "\n")
        let store = try stores.store(backend)
        let failure = try #require(throws: ImportFailure.self) { try importing(store).importProfiles(path: path) }
        #expect(failure.issues.first?.message == "has 100003 fields, the header has 3")
    }

    @Test func brokenQuotingAtEveryBufferBoundaryIsATypedError() throws {
        let path = folder.file("q.csv", "id,name,age\na,\"Ann\"x,30\n")
        for size in [4, 5, 7, 16, 64] {
            #expect(throws: CSVError.junkAfterQuote(file: path, line: 2)) { try records(path, bufferSize: size) }
        }
        let open = folder.file("open.csv", "id,name,age\r\na,\"Ann,30\r\n\r\n")
        #expect(throws: CSVError.unterminatedQuote(file: open, line: 2)) { try records(open, bufferSize: 4) }
    }
}
