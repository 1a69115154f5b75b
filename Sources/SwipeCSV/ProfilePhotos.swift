import Foundation
import SwipeStore

/// The `photos` column of a profiles CSV (Documentation/Photos.md): each
/// item an `https://` URL (kept as given), a stored photo's `/photos/ID`
/// (as `swipe profiles --format csv` writes them; it must be this
/// profile's), or a file path relative to the CSV's folder, which the import
/// reads, checks as every photo is checked (`PhotoBytes`), and stores.
/// Anything else (`http://…`, another scheme, an absolute path) is refused
/// naming the value.
///
/// On the reading thread `resolve` turns a row's items into the list to
/// store (a file becomes its stored path, `/photos/ID`, which depends only
/// on the database's photo secret, the profile and the content: a
/// re-import of the same files changes nothing) and notes what the writer
/// must check or store once the profiles are written (`finish`, in the
/// import's transaction).
package final class ProfilePhotos: @unchecked Sendable {
    /// What a row's photos need from the database once its profile is written.
    package enum Pending: Hashable, Sendable {
        /// A file to store (unless the profile has it already): where it is,
        /// its id and the SHA-256 the reading thread found.
        case file(value: String, path: String, id: String, sha256: String)
        /// A stored photo the file names: the profile must have it.
        case stored(value: String, id: String)
    }

    /// A row's pending photos, with its line and profile.
    package struct Row: Sendable {
        var line: Int
        var profile: String
        var pending: [Pending]
    }

    private let folder: URL
    /// The database's photo secret, or a new one the import stores (`finish`).
    package let secret: String
    private var rows: [Row] = []

    /// `csvPath`: the file being imported (`-`: standard input, whose paths
    /// are relative to the working directory).
    package init(csvPath: String, secret: String) {
        let base =
            csvPath == CSVReader.standardInput
            ? URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
            : URL(fileURLWithPath: csvPath).deletingLastPathComponent()
        folder = base.standardizedFileURL
        self.secret = secret
    }

    /// Whether every item of a raw `photos` field is an `https://` URL (or
    /// there is none): then `ProfileRow.appendJSONList` encodes it as ever,
    /// without a `String` per item.
    package static func isPlainURLs(_ field: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = field.baseAddress else { return true }
        // `https://` as a little-endian word: one compare per item, and the
        // rest of the item skipped with memchr (this ran byte by byte, and
        // made an array per row: 1,300 instructions a row of a 1M import).
        let https: UInt64 = 0x2F2F_3A73_7074_7468
        let count = field.count
        var index = 0
        while index < count {
            let byte = base[index]
            if byte == 0x3B || byte == 0x20 || byte == 0x09 {  // ;, or a blank before an item
                index += 1
                continue
            }
            guard index + 8 < count,
                UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) == https
            else { return false }
            guard let separator = memchr(base + index + 8, 0x3B, count - index - 8) else { return true }
            index = base.distance(to: separator.assumingMemoryBound(to: UInt8.self)) + 1
        }
        return true
    }

    /// The list to store for `items` of profile `profile`; files are read and
    /// checked here. Throws a `RowIssue` naming the item and why.
    package func resolve(_ items: [String], profile: String, pending: inout [Pending]) throws -> [String] {
        var list: [String] = []
        for item in items {
            let stored: String
            switch PhotoItem(item) {
            case .url:
                stored = item
            case .stored(let id):
                pending.append(.stored(value: item, id: id))
                stored = item
            case .refused:
                throw CSVImport.RowIssue(
                    column: "photos", value: item, message: PhotoRefusal.notAllowed(value: item).description)
            case .file(let relative):
                let path = folder.appendingPathComponent(relative).standardizedFileURL.path
                let photo = try Self.read(path, value: item)
                let id = PhotoID.make(secret: secret, profile: profile, sha256: photo.sha256)
                pending.append(.file(value: item, path: path, id: id, sha256: photo.sha256))
                stored = PhotoItem.path(id: id)
            }
            if let at = list.firstIndex(of: stored) {
                throw CSVImport.RowIssue(
                    column: "photos", value: item, message: PhotoRefusal.duplicate(position: at + 1).description)
            }
            list.append(stored)
        }
        if list.count > PhotoLimits.maximumCount {
            throw CSVImport.RowIssue(
                column: "photos", value: "\(list.count) photos",
                message: PhotoRefusal.tooMany(limit: PhotoLimits.maximumCount).description)
        }
        return list
    }

    /// The photo file at `path`, checked (`PhotoFile`); a `RowIssue` naming `value` and the path.
    static func read(_ path: String, value: String) throws -> PhotoBytes {
        do {
            return try PhotoFile.read(path, hint: " (a photo path is relative to the CSV file's folder)")
        } catch let refusal as PhotoFile.Refusal {
            throw CSVImport.RowIssue(column: "photos", value: value, message: refusal.description)
        }
    }

    /// Notes a written row's pending photos (the writer's thread).
    package func note(line: Int, profile: String, _ pending: [Pending]) {
        guard !pending.isEmpty else { return }
        rows.append(Row(line: line, profile: profile, pending: pending))
    }

    /// After the profiles are written, in the import's transaction: stores
    /// the secret the ids were made with, each noted file its profile lacks
    /// (read again, and refused if it changed since), checks each stored
    /// photo named is the profile's, then deletes the stored photos no list
    /// names any more (a re-import that dropped them). `file` names the CSV
    /// in errors.
    package func finish(file: String, fileHasPhotos: Bool, on executor: some SQLExecutor) throws {
        guard fileHasPhotos || !rows.isEmpty else { return }
        if !rows.isEmpty, try executor.photoSecret(given: secret) != secret {
            throw ImportFailure(
                issues: [
                    ImportIssue(
                        file: file, line: 1,
                        message: "another swipe made this database's photo secret during the import; import again")
                ],
                total: 1, isWholeFile: true)
        }
        var issues: [ImportIssue] = []
        let now = Timestamp.string(from: Date())
        for row in rows {
            guard
                let key = try executor.first(
                    "SELECT key FROM profiles WHERE id = $1", [.text(row.profile)], { try $0.int("key") })
            else { continue }
            for pending in row.pending {
                switch pending {
                case let .stored(value, id):
                    if try !executor.hasPhoto(id: id, profile: key) {
                        issues.append(
                            ImportIssue(
                                file: file, line: row.line, column: "photos", value: value,
                                message: "no stored photo of \(row.profile) has this path"))
                    }
                case let .file(value, path, id, sha256):
                    if try executor.hasPhoto(id: id, profile: key) { continue }
                    do {
                        let photo = try Self.read(path, value: value)
                        guard photo.sha256 == sha256 else {
                            throw CSVImport.RowIssue(
                                column: "photos", value: value, message: "\(path): changed during the import")
                        }
                        try executor.insertPhoto(id: id, profile: key, photo, at: now)
                    } catch let issue as CSVImport.RowIssue {
                        issues.append(
                            ImportIssue(
                                file: file, line: row.line, column: issue.column, value: issue.value,
                                message: issue.message))
                    }
                }
            }
        }
        if !issues.isEmpty {
            throw ImportFailure(issues: Array(issues.prefix(ImportFailure.shownLimit)), total: issues.count)
        }
        try executor.deleteUnlistedPhotos()
    }
}
