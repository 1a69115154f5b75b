import Foundation

extension ProfileCSV {
    /// The ids a profile import has read, to refuse an id that repeats an
    /// earlier line: only the reading thread touches it (`ImportPipeline`).
    ///
    /// An id is kept as a 64-bit hash of its trimmed bytes, not as a
    /// `String`, in a flat array probed linearly (an open addressing table)
    /// at most 3/4 full. Two different ids share a hash with probability
    /// about n²/2⁶⁵ (1 in 37 million for a million ids); the hash is seeded
    /// per process. After the first rows the table is sized once for the
    /// rows the file size suggests, so it does not double (and briefly hold
    /// both copies) again and again as it grows.
    ///
    /// The line of each id is needed only to word a refusal, so when the file
    /// can be read again (`rereading`, not standard input) it is not kept:
    /// 8 bytes a slot, about 11 MB for a million ids instead of 16 MB, which
    /// is most of what an import's memory grows by. A bit per line says which
    /// lines' ids were noted. At the first repeat the file's earlier lines are
    /// read again, once, and from then on every noted id keeps its line (a
    /// dictionary: a file with repeats is refused anyway). Reading standard
    /// input, each slot keeps its line as well (12 bytes).
    package final class SeenIDs: @unchecked Sendable {
        // The stored properties are touched by the reading thread alone and
        // never by overlapping accesses, so they skip the dynamic exclusivity
        // check (six a row, about 450 instructions of the reading thread's).

        /// 0 marks an empty slot (a hash of 0 is stored as 1).
        @exclusivity(unchecked) private var keys: [UInt64]
        /// Each slot's line, when the file cannot be read again; else empty.
        @exclusivity(unchecked) private var lines: [UInt32]
        @exclusivity(unchecked) private var count = 0
        private let fileSize: Int
        @exclusivity(unchecked) private var sampledBytes = 0
        private static let sample = 256
        /// The file to read again for lines (nil: lines are kept).
        private let rereading: String?
        /// The `id` field's position in the file's records (`insert` says it).
        @exclusivity(unchecked) private var idField: Int?
        /// One bit per line: whether that line's id was noted (`rereading` only).
        @exclusivity(unchecked) private var noted: [UInt64] = []
        /// After the first repeat (`rereading` only): each noted id's first line.
        @exclusivity(unchecked) private var firstLines: [UInt64: UInt32]?

        /// `rereading`: the CSV file, read again for lines so they need not
        /// be kept (ignored for standard input, `-`).
        package init(fileSize: Int, rereading: String? = nil) {
            self.fileSize = fileSize
            self.rereading = rereading == CSVReader.standardInput ? nil : rereading
            keys = Array(repeating: 0, count: 1024)
            lines = self.rereading == nil ? Array(repeating: 0, count: 1024) : []
        }

        /// The hash an id is kept as: of its bytes, trimmed as stored.
        static func key(_ id: UnsafeRawBufferPointer) -> UInt64 {
            var hasher = Hasher()
            hasher.combine(bytes: id)
            return max(1, UInt64(bitPattern: Int64(hasher.finalize())))
        }

        /// Notes `row`'s id from `line` (a record of about `recordBytes`
        /// bytes in the file, its id in field `idField`); a `RowIssue` when
        /// an earlier line had it.
        package func insert(_ row: ProfileRow, line: Int, recordBytes: Int, idField: Int? = nil) throws {
            if self.idField == nil { self.idField = idField }
            if count < Self.sample {
                sampledBytes += recordBytes
                if count == Self.sample - 1 {
                    let estimate = Double(fileSize) / (Double(sampledBytes) / Double(Self.sample))
                    resize(toHold: Int(min(estimate * 1.05, 100_000_000)))
                }
            }
            guard let range = row.texts[ProfileRow.Column.id.rawValue] else { return }
            let key = row.bytes.withUnsafeBytes { Self.key(UnsafeRawBufferPointer(rebasing: $0[range])) }
            let stored = UInt32(truncatingIfNeeded: line)
            if firstLines != nil {
                if let first = firstLines![key] { throw Self.repeats(row, first) }
                firstLines![key] = stored
                return
            }
            guard let slot = add(key, line: stored) else {
                if rereading != nil { note(line) }
                if count * 4 > keys.count * 3 { resize(toHold: count * 2) }
                return
            }
            if rereading == nil { throw Self.repeats(row, lines[slot]) }
            // The first repeat: every noted id's line, read again from the file.
            firstLines = (try? linesReadAgain(before: line)) ?? [:]
            keys = []
            noted = []
            throw Self.repeats(row, firstLines![key])
        }

        private static func repeats(_ row: ProfileRow, _ first: UInt32?) -> RowIssue {
            RowIssue(
                column: "id", value: row.text(.id),
                message: first.map { "id repeats line \($0); an id may appear once per file" }
                    ?? "id repeats an earlier line; an id may appear once per file")
        }

        /// Stores `key` with `line`: nil, or the slot that already holds `key`.
        /// The probe runs on the table's buffer: one access to `keys`, not
        /// an exclusivity check per slot looked at.
        private func add(_ key: UInt64, line: UInt32) -> Int? {
            let (slot, found) = keys.withUnsafeMutableBufferPointer { keys in
                var slot = Self.slot(of: key, among: keys.count)
                while keys[slot] != 0 {
                    if keys[slot] == key { return (slot, true) }
                    slot = slot + 1 == keys.count ? 0 : slot + 1
                }
                keys[slot] = key
                return (slot, false)
            }
            if found { return slot }
            if !lines.isEmpty { lines[slot] = line }
            count += 1
            return nil
        }

        private func note(_ line: Int) {
            let word = line >> 6
            if word >= noted.count { noted += repeatElement(0, count: max(word + 1 - noted.count, noted.count)) }
            noted[word] |= 1 << UInt64(line & 63)
        }

        private func wasNoted(_ line: Int) -> Bool {
            let word = line >> 6
            return word < noted.count && noted[word] & (1 << UInt64(line & 63)) != 0
        }

        /// The first line of each noted id, reading the file's records before `line` again.
        private func linesReadAgain(before line: Int) throws -> [UInt64: UInt32] {
            guard let rereading, let idField else { return [:] }
            let reader = try CSVReader(path: rereading)
            var record = CSVRawRecord()
            guard try reader.next(into: &record) else { return [:] }  // the header
            var id = ProfileRow()
            var first: [UInt64: UInt32] = [:]
            while try reader.next(into: &record), record.line < line {
                guard wasNoted(record.line), idField < record.count else { continue }
                id.removeAll()
                record.bytes.withUnsafeBufferPointer {
                    id.appendTrimmed(UnsafeBufferPointer(rebasing: $0[record.range(idField)]))
                }
                let key = id.bytes.withUnsafeBytes { Self.key($0) }
                if first[key] == nil { first[key] = UInt32(truncatingIfNeeded: record.line) }
            }
            return first
        }

        /// A slot for `key` in a table of `size` (Lemire's multiply-shift: the
        /// hash's high bits, scaled to any size, not only powers of two).
        private static func slot(of key: UInt64, among size: Int) -> Int {
            Int(truncatingIfNeeded: key.multipliedFullWidth(by: UInt64(size)).high)
        }

        /// Rebuilds the table with room for `ids` at most 3/4 full.
        private func resize(toHold ids: Int) {
            let size = max(1024, ids * 4 / 3 + 1)
            guard size > keys.count, firstLines == nil else { return }
            let oldKeys = keys, oldLines = lines
            keys = []
            lines = []
            keys = Array(repeating: 0, count: size)
            if !oldLines.isEmpty { lines = Array(repeating: 0, count: size) }
            count = 0
            for index in oldKeys.indices where oldKeys[index] != 0 {
                _ = add(oldKeys[index], line: oldLines.isEmpty ? 0 : oldLines[index])
            }
        }
    }
}
