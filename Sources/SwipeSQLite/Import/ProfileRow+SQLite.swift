import Foundation
import SwipeCSV
import SwipeStore

extension ProfileRow {
    /// The values as bound, by parameter, for an error.
    var arguments: [SQLiteValue] {
        [.optionalText(text(.id)), .optionalText(text(.name)), .int(age)]
            + [Column.gender, .city, .bio, .photos, .interests].map { .optionalText(text($0)) }
            + [
                lat.map(SQLiteValue.real) ?? .null, lon.map(SQLiteValue.real) ?? .null, .optionalText(text(.seeking)),
                .int(ageMin), .int(ageMax), maxKm.map(SQLiteValue.real) ?? .null,
            ]
    }

    /// Binds the row to `statement` (parameters 1…14 in `profileColumns`
    /// order), steps it once and resets it: sqlite3_step's code.
    func run(_ statement: Statement) throws -> Int32 {
        try bytes.withUnsafeBufferPointer { buffer in
            try withUnsafePointer(to: self) { row in
                try Self.bind(row, buffer, to: statement, offset: 0, terminate: true, memory: nil)
            }
            return statement.stepAndReset()
        }
    }

    /// Each text column's parameter: made once, not an array per row bound.
    private static let textParameters: [Int32] = [1, 2, 4, 5, 6, 7, 8, 11]

    /// Binds the row at `row` to parameters `offset + 1` … `offset + 14` of
    /// `statement`, in `profileColumns` order. The texts are bound in place
    /// (SQLITE_STATIC) from `buffer`, which must be the row's `bytes` and
    /// stay valid until the statement has been stepped. With `terminate`,
    /// texts without a NUL inside are bound as NUL-terminated, which spares
    /// SQLite a copy when a CHECK calls length() or json_valid() on them;
    /// without, they are bound by length (the import, whose CHECKs SQLite
    /// skips). With `memory`, a NULL or number the parameter already holds is
    /// not bound again. The row is reached through a pointer: a method called
    /// on `rows[i]` or `row.pointee` copied it (three retains and releases)
    /// on the import's writing thread.
    static func bind(
        _ row: UnsafePointer<ProfileRow>, _ buffer: UnsafeBufferPointer<UInt8>, to statement: Statement,
        offset: Int32, terminate: Bool, memory: BindMemory?
    ) throws {
        let texts = row.pointee.texts
        precondition(texts.count == Column.allCases.count, "a profile row needs every text column")
        let parameters = Self.textParameters
        for column in 0..<texts.count {
            guard let range = texts[column] else {
                try statement.bind(offset + parameters[column], .null, memory: memory)
                continue
            }
            let text = UnsafeBufferPointer(rebasing: buffer[range])
            // Each text is followed by a NUL; unless one is inside it too,
            // SQLite may read it as terminated and skips copying it to add
            // one (length() and json_valid() want terminated text).
            let terminated = terminate && (text.isEmpty || memchr(text.baseAddress!, 0, text.count) == nil)
            memory?[offset + parameters[column]] = nil
            try statement.bind(offset + parameters[column], bytes: text, terminated: terminated)
        }
        try statement.bind(offset + 3, .int(row.pointee.age), memory: memory)
        try statement.bind(offset + 9, real: row.pointee.lat, memory: memory)
        try statement.bind(offset + 10, real: row.pointee.lon, memory: memory)
        try statement.bind(offset + 12, .int(row.pointee.ageMin), memory: memory)
        try statement.bind(offset + 13, .int(row.pointee.ageMax), memory: memory)
        try statement.bind(offset + 14, real: row.pointee.maxKm, memory: memory)
    }
}
