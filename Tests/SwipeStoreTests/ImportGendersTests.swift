import Foundation
import SwipeCore
import SwipeTestSupport
import Testing

@testable import SwipeCSV
@testable import SwipeSQLite
@testable import SwipeStore

/// The warning after a profiles import, "nobody has gender …", answered from
/// the import's own tally when it filled an empty table (no scan of a
/// million rows), and from the table otherwise: the same words either way.
@Suite struct ImportGendersTests {
    let stores = TestStores()
    var folder: TemporaryFolder { stores.folder }

    /// Worked by hand: genders `F`, ` f ` and `m` are f 2 and m 1; the lists
    /// seek f, m, nb and x, so nb and x are named.
    static let file = """
        id,name,age,gender,seeking
        a,A,30,F,x;F
        b,B,31, f ,m
        c,C,32,m,
        d,D,33,,X;nb

        """
    static let warning = #"nobody has gender "nb", "x"; the genders here: f 2, m 1"#

    @Test(arguments: TestBackend.all) func aFirstImportIsAnsweredFromItsRowsAsTheTableWould(_ backend: TestBackend)
        throws
    {
        let store = try stores.store(backend)
        let summary = try importing(store).importProfiles(path: folder.file("p.csv", Self.file))
        #expect(try store.unknownSoughtGenders(after: summary) == Self.warning)
        #expect(try store.unknownSoughtGenders() == Self.warning, "the table's scan says the same")
        if backend == .sqlite { #expect(summary.genders != nil, "the first import into an empty table tallies") }
    }

    @Test(arguments: TestBackend.all) func aLaterImportAsksTheTable(_ backend: TestBackend) throws {
        let store = try stores.store(backend)
        _ = try importing(store).importProfiles(path: folder.file("p.csv", Self.file))
        // e adds the gender nb; x is still sought by nobody's gender.
        let summary = try importing(store).importProfiles(
            path: folder.file("q.csv", "id,name,age,gender\ne,E,40,NB\n"))
        #expect(summary.genders == nil, "the table held rows the file does not")
        #expect(
            try store.unknownSoughtGenders(after: summary)
                == #"nobody has gender "x"; the genders here: f 2, m 1, nb 1"#)
    }

    /// Random files into an empty table: the tally's answer is the scan's.
    @Test(arguments: 0..<12) func tallyAndScanAgreeOnRandomFiles(seed: Int) throws {
        var random = SplitMix64(seed: UInt64(seed) &* 0x2545_F491 &+ 3)
        let genders = ["f", "F", " f", "m", "M ", "nb", "Nb", "x-y", "é", "É", ""]
        let parts = ["f", "m", "F", "nb", " x ", "é", "", "q", "Q"]
        var lines = ["id,name,age,gender,seeking"]
        for index in 0..<Int(random.next() % 40) {
            let gender = genders[Int(random.next() % UInt64(genders.count))]
            let seeking = (0..<Int(random.next() % 4)).map { _ in parts[Int(random.next() % UInt64(parts.count))] }
            lines.append("p\(index),P,30,\"\(gender)\",\"\(seeking.joined(separator: ";"))\"")
        }
        let store = try stores.store(.sqlite)
        let summary = try importing(store).importProfiles(path: folder.file("r.csv", lines.joined(separator: "\n")))
        if lines.count > 1 { try #require(summary.genders != nil) }
        #expect(try store.unknownSoughtGenders(after: summary) == store.unknownSoughtGenders(), "\(lines)")
    }

    /// The shortcut for a plain `seeking` list stores what the general rule
    /// (`Discovery.seeking(fromList:)`) stores, whenever it answers.
    @Test func plainSeekingListsAreStoredAsTheRuleStoresThem() {
        var random = SplitMix64(seed: 11)
        let alphabet: [UInt8] = Array("fmnbFMx; \t-é".utf8)
        var shortcuts = 0
        for _ in 0..<20_000 {
            let bytes = (0..<Int(random.next() % 9)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            var row = ProfileRow()
            let answered = bytes.withUnsafeBufferPointer { ProfileCSV.appendPlainSeeking($0, into: &row) }
            guard answered else { continue }
            shortcuts += 1
            let rule = Discovery.seeking(fromList: String(decoding: bytes, as: UTF8.self))
            #expect(
                row.texts.first.flatMap { $0.map { String(decoding: row.bytes[$0], as: UTF8.self) } }
                    == (rule.isEmpty ? nil : rule.joined(separator: ";")),
                "\(String(decoding: bytes, as: UTF8.self))")
        }
        #expect(shortcuts > 1_000, "the shortcut answered for \(shortcuts) lists")
    }
}
