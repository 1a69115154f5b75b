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
    private var genders: [[UInt8]] = []
    private var genderCounts: [Int] = []
    private var seekingLists: [[UInt8]] = []
    private var overflowed = false
    /// The rows noted: the tally stands for the table only if exactly these
    /// rows were inserted into an empty one.
    package private(set) var rows = 0

    package init() {}

    /// Notes `row`'s gender and sought list, as encoded for storing.
    package func note(_ row: ProfileRow) {
        rows += 1
        guard !overflowed else { return }
        row.bytes.withUnsafeBufferPointer { bytes in
            if let range = row.texts[ProfileRow.Column.gender.rawValue], !range.isEmpty {
                let value = UnsafeBufferPointer(rebasing: bytes[range])
                if let index = genders.firstIndex(where: { $0.elementsEqual(value) }) {
                    genderCounts[index] += 1
                } else {
                    genders.append(Array(value))
                    genderCounts.append(1)
                }
            }
            if let range = row.texts[ProfileRow.Column.seeking.rawValue], !range.isEmpty {
                let value = UnsafeBufferPointer(rebasing: bytes[range])
                if !seekingLists.contains(where: { $0.elementsEqual(value) }) { seekingLists.append(Array(value)) }
            }
        }
        if genders.count > Self.limit || seekingLists.count > Self.limit { overflowed = true }
    }

    /// What the rows hold, as the table's scans would find it (genders as
    /// `lower(trim(gender))`, lists split as `Discovery.seeking`); nil past `limit`.
    package var genderSummary: ImportedGenders? {
        guard !overflowed else { return nil }
        var counts: [String: Int] = [:]
        for (bytes, count) in zip(genders, genderCounts) {
            counts[Discovery.genderKey(String(decoding: bytes, as: UTF8.self)), default: 0] += count
        }
        counts[""] = nil
        let sought = Set(seekingLists.flatMap { Discovery.seeking(fromList: String(decoding: $0, as: UTF8.self)) })
        return ImportedGenders(counts: counts, sought: sought)
    }
}
