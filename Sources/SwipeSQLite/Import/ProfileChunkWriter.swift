import CSQLite
import SwipeCSV
import SwipeStore

/// Writes the profile import's rows `chunkSize` at a time with one
/// multi-row INSERT, falling back to `ProfileUpsert` row by row for a chunk
/// that hits an existing id.
///
/// SQLite spends a fixed cost per statement execution (opening and closing
/// the table and index cursors, the statement transaction, halting). One
/// row per INSERT, a profile costs about 11,700 instructions; 64 rows per
/// INSERT save 4,800 of them, 16 rows 4,300 (callgrind, 20,000 rows). A chunk that
/// conflicts is undone by SQLite as a whole (the statement aborts, the
/// transaction stays), so redoing it row by row is exact. A re-import
/// conflicts on every chunk; after a conflict the next `chunkSize * 16`
/// rows go row by row before a chunk is tried again.
struct ProfileChunkWriter {
    static let chunkSize = 64
    /// `INSERT INTO profiles (…) VALUES (?1, …, ?14), (?15, …, ?28), …`, for `chunkSize` rows.
    static let chunkInsertSQL =
        "INSERT INTO profiles (\(SQLiteStore.profileColumns)) VALUES "
        + (0..<chunkSize).map { row in
            let count = Int(ProfileRow.parameterCount)
            return "(" + (1...count).map { "?\(row * count + $0)" }.joined(separator: ", ") + ")"
        }.joined(separator: ", ")

    private let upsert: ProfileUpsert
    private let chunkInsert: Statement
    /// What `chunkInsert`'s parameters hold from the chunk before.
    private let chunkBound = BindMemory(parameters: chunkSize * Int(ProfileRow.parameterCount))
    /// Rows waiting for their chunk, moved in by `add` (their storage is
    /// swapped out for the caller's to reuse).
    private var pending: [ProfileRow]
    private var pendingCount = 0
    private var rowByRowLeft = 0
    private(set) var inserted = 0
    private(set) var updated = 0
    private(set) var unchanged = 0

    /// `columns`: those the file has, which an update of an existing profile sets.
    init(store: SQLiteStore, columns: [SQLiteImporter.ProfileColumn]) throws {
        upsert = try store.profileUpsert(updating: columns)
        chunkInsert = try store.connection.statement(Self.chunkInsertSQL)
        pending = Array(repeating: ProfileRow(), count: Self.chunkSize)
    }

    /// Takes `row` (leaving `row` with storage to reuse) and writes the chunk once it is full.
    mutating func add(_ row: inout ProfileRow) throws {
        swap(&pending[pendingCount], &row)
        pendingCount += 1
        if pendingCount == Self.chunkSize { try flush() }
    }

    /// Writes the rows still pending.
    mutating func flush() throws {
        defer { pendingCount = 0 }
        if pendingCount == Self.chunkSize && rowByRowLeft == 0 {
            let code = try bindChunk()
            if code == SQLITE_DONE {
                inserted += pendingCount
                return
            }
            guard sqlite3_extended_errcode(upsert.connection.handle) == SQLiteStore.constraintUnique else {
                // The full text binds 896 parameters; the one-row form says the same.
                throw upsert.connection.error(
                    code: code, sql: upsert.insert.sql + " (\(Self.chunkSize) rows at a time)")
            }
            rowByRowLeft = Self.chunkSize * 16
        }
        for index in 0..<pendingCount {
            switch try upsert.run(pending[index]) {
            case .inserted: inserted += 1
            case .updated: updated += 1
            case .unchanged: unchanged += 1
            }
        }
        rowByRowLeft = max(0, rowByRowLeft - pendingCount)
    }

    /// Binds the pending rows in place, each inside its own buffer's
    /// lifetime, then steps the chunk insert: sqlite3_step's code. The rows
    /// are reached through a pointer, so none is copied (retained): their
    /// arrays were last written by the reading thread.
    private func bindChunk() throws -> Int32 {
        try pending.withUnsafeBufferPointer { rows in
            try Self.bind(rows.baseAddress!, count: rows.count, from: 0, to: chunkInsert, memory: chunkBound)
        }
    }

    private static func bind(
        _ rows: UnsafePointer<ProfileRow>, count: Int, from index: Int, to statement: Statement, memory: BindMemory
    ) throws -> Int32 {
        guard index < count else { return statement.stepAndReset() }
        let row = rows + index
        // The bytes alone (one retain): `row.pointee.bytes.with…` copied the whole row.
        let bytes = row.pointee.bytes
        return try bytes.withUnsafeBufferPointer { buffer in
            try ProfileRow.bind(
                row, buffer, to: statement, offset: Int32(index) * ProfileRow.parameterCount, terminate: false,
                memory: memory)
            return try bind(rows, count: count, from: index + 1, to: statement, memory: memory)
        }
    }
}
