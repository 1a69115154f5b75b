import Foundation
import SwipeStore

/// The genders and the sought genders of the rows a profiles import read,
/// so that the check after an import into an empty table
/// (`SwipeDatabase.unknownSoughtGenders(after:)`) needs no scan of it: for a
/// million profiles its two scans (`GROUP BY` on the gender, `DISTINCT` on
/// the sought list) cost a fifth of the import's instructions.
///
/// Used on the reading thread only, read once the import is over. Few
/// distinct values are expected (a handful of genders, a handful of lists);
/// past `limit` of either it gives up, and the check scans as before.
package final class GenderTally: @unchecked Sendable {
    package static let limit = 256
    /// The distinct genders and sought lists, each as a range of one byte
    /// array (an array per value cost a retain and a release per compare).
    /// Touched by the reading thread alone and never by overlapping
    /// accesses, so they skip the dynamic exclusivity check (about 300
    /// instructions a row).
    @exclusivity(unchecked) private var genders = FlatValues()
    @exclusivity(unchecked) private var genderCounts: [Int] = []
    @exclusivity(unchecked) private var seekingLists = FlatValues()
    @exclusivity(unchecked) private var overflowed = false
    /// The rows noted: the tally stands for the table only if exactly these
    /// rows were inserted into an empty one.
    @exclusivity(unchecked) package private(set) var rows = 0

    package init() {}

    /// Notes `row`'s gender and sought list, as encoded for storing.
    package func note(_ row: ProfileRow) {
        rows += 1
        guard !overflowed else { return }
        row.bytes.withUnsafeBufferPointer { bytes in
            if let range = row.texts[ProfileRow.Column.gender.rawValue], !range.isEmpty {
                let value = UnsafeBufferPointer(rebasing: bytes[range])
                if let index = genders.index(of: value) {
                    genderCounts[index] += 1
                } else {
                    genders.append(value)
                    genderCounts.append(1)
                }
            }
            if let range = row.texts[ProfileRow.Column.seeking.rawValue], !range.isEmpty {
                let value = UnsafeBufferPointer(rebasing: bytes[range])
                if seekingLists.index(of: value) == nil { seekingLists.append(value) }
            }
        }
        if genders.count > Self.limit || seekingLists.count > Self.limit { overflowed = true }
    }

    /// Distinct byte strings in one buffer; the last one found is tried first
    /// (a file's rows mostly repeat a few values).
    private struct FlatValues {
        var bytes: [UInt8] = []
        var ranges: [Range<Int>] = []
        var last = 0

        var count: Int { ranges.count }

        func value(_ index: Int) -> [UInt8] { Array(bytes[ranges[index]]) }

        mutating func index(of value: UnsafeBufferPointer<UInt8>) -> Int? {
            let found: Int? = bytes.withUnsafeBufferPointer { stored in
                func matches(_ index: Int) -> Bool {
                    let range = ranges[index]
                    return range.count == value.count
                        && (value.isEmpty
                            || memcmp(stored.baseAddress! + range.lowerBound, value.baseAddress!, value.count) == 0)
                }
                if last < ranges.count && matches(last) { return last }
                return ranges.indices.first(where: matches)
            }
            if let found { last = found }
            return found
        }

        mutating func append(_ value: UnsafeBufferPointer<UInt8>) {
            let start = bytes.count
            bytes.append(contentsOf: value)
            ranges.append(start..<bytes.count)
        }
    }

    /// What the rows hold, as the table's scans would find it (genders as
    /// `lower(trim(gender))`, lists split as `Discovery.seeking`); nil past `limit`.
    package var genderSummary: ImportedGenders? {
        guard !overflowed else { return nil }
        var counts: [String: Int] = [:]
        for (index, count) in genderCounts.enumerated() {
            counts[Discovery.genderKey(String(decoding: genders.value(index), as: UTF8.self)), default: 0] += count
        }
        counts[""] = nil
        let sought = Set(
            (0..<seekingLists.count).flatMap {
                Discovery.seeking(fromList: String(decoding: seekingLists.value($0), as: UTF8.self))
            })
        return ImportedGenders(counts: counts, sought: sought)
    }
}
