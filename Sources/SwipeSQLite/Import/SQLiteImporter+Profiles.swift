import Foundation
import SwipeCSV
import SwipeCore
import SwipeStore

extension SQLiteImporter {
    typealias ProfileColumn = ProfileCSV.Column
    typealias SeenIDs = ProfileCSV.SeenIDs

    /// Imports a profiles CSV (README, "Profiles CSV"): `id`, `name`, `age` (18–120)
    /// required; `gender`, `city`, `bio`, `photos`, `interests` optional, the
    /// last two `;`-separated. Profiles with a known id are updated in place.
    ///
    /// Rows go from the reader's bytes to the statement's parameters through
    /// reused `ProfileRow`s: no `String` per field, no `Profile`. They are
    /// read and encoded on a second thread (`ImportPipeline`) and written 64
    /// to an INSERT (`ProfileChunkWriter`).
    ///
    /// An id may appear once per file (compared trimmed, as stored): a
    /// repeat is a row error naming both lines, found with a set of the ids
    /// read so far, on the reading thread. An update writes only the columns
    /// the file has and keeps the others.
    public func importProfiles(path: String) throws -> ImportSummary {
        let state = ProfileWriteState()
        let seen = SeenIDs(
            fileSize: (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0, rereading: path)
        // Photo files are read on the reading thread, their ids made with the
        // database's photo secret (a new one, stored by the import, if none).
        let photos = ProfilePhotos(
            csvPath: path,
            secret: (try? store.connection.first("SELECT value FROM settings WHERE name = 'photo_secret'", []) {
                try $0.text("value")
            }) ?? PhotoID.newSecret())
        // What the rows hold of genders, for the check after the import.
        let tally = GenderTally()
        var summary = try run(
            path: path, required: ProfileColumn.required, optional: ProfileColumn.optional, checkedRows: true,
            rollbackJournal: true, makeRow: ProfileRow.init,
            prepare: { record, positions, row in
                try ProfileCSV.encode(record, positions: positions, into: &row, photos: photos)
                try seen.insert(
                    row, line: record.line, recordBytes: record.bytes.count,
                    idField: positions[ProfileColumn.id.rawValue])
                tally.note(row)
            },
            write: { slot, index, dryRun in
                if state.missing == nil { state.missing = ProfileColumn.missing(fromFileWith: Set(index.keys)) }
                if let missing = state.missing, !missing.isEmpty, let id = slot.row.text(.id),
                    try store.profileKey(id: id) == nil
                {
                    throw ProfileCSV.newProfileIssue(id: id, missing: missing)
                }
                if dryRun { return .inserted }
                // The id as a String only for a row with photos to store or check.
                if !slot.row.photoPending.isEmpty {
                    photos.note(line: slot.record.line, profile: slot.row.text(.id) ?? "", slot.row.photoPending)
                }
                if state.writer == nil {
                    state.fileHasPhotos = index["photos"] != nil
                    if try store.connection.scalarInt("SELECT count(*) FROM (SELECT 1 FROM profiles LIMIT 1)") == 0 {
                        try store.connection.execute("DROP INDEX profiles_cell")
                        state.rebuildPlaces = true
                    }
                    state.writer = try ProfileChunkWriter(
                        store: store, columns: ProfileColumn.updated(byFileWith: Set(index.keys)))
                }
                try state.writer!.add(&slot.row)
                return nil
            },
            flush: {
                try state.writer?.flush()
                try photos.finish(file: path, fileHasPhotos: state.fileHasPhotos, on: store.connection)
                // In the import's transaction: a failed import undoes the drop too.
                if state.rebuildPlaces { try store.connection.execute(SchemaV2.placesIndex) }
                // An updated profile may now be eligible for feeds that passed it
                // (README "Discovery"): they start again from the first key.
                let writer = state.writer
                if (writer?.updated ?? 0) > 0 {
                    try store.connection.execute("DELETE FROM feed_cursors; DELETE FROM liker_cursors")
                }
                return (writer?.inserted ?? 0, writer?.updated ?? 0, writer?.unchanged ?? 0)
            })
        // The table was empty and now holds exactly the rows tallied.
        if state.rebuildPlaces, let writer = state.writer, writer.inserted == tally.rows, writer.updated == 0,
            writer.unchanged == 0
        {
            summary.genders = tally.genderSummary
        }
        return summary
    }
}

/// What a profile import's writing thread keeps from row to row. Held by a
/// class, not captured as variables: the `write` closure escapes, so each
/// captured variable it touched was checked for exclusive access at run
/// time, three times a row (about 300 instructions). Only the writing
/// thread touches it, never in overlapping accesses.
private final class ProfileWriteState {
    @exclusivity(unchecked) var writer: ProfileChunkWriter?
    /// Whether the file has a `photos` column (known at the first row).
    @exclusivity(unchecked) var fileHasPhotos = false
    /// The required columns the file lacks (a partial re-import, known at
    /// the first row): each row's id must then exist; a new one is
    /// refused, naming its line.
    @exclusivity(unchecked) var missing: [String]?
    /// A first import (no profile yet) builds the index of places once, at
    /// the end, sorted: a quarter of the cost of an index insert per row.
    @exclusivity(unchecked) var rebuildPlaces = false
}
