import Foundation

/// A photo read from a file on this machine (`me photo add FILE`, a
/// profiles CSV's relative paths), then checked by `PhotoBytes`: the one
/// place swipe reads a photo file, so every caller refuses the same files
/// with the same words. A file over the limit is refused before it is read.
public enum PhotoFile {
    /// Why a photo file was refused: its path (as resolved) and the reason.
    public struct Refusal: Error, Hashable, Sendable, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "\(path): \(reason)" }
    }

    /// The photo in the file at `path`, checked and stripped.
    ///
    /// - Throws: `PhotoFile.Refusal` (missing, a folder, unreadable, or the
    ///   photo's own refusal, `PhotoRefusal`, worded).
    public static func read(_ path: String, hint: String = "") throws -> PhotoBytes {
        func refuse(_ reason: String) -> Refusal { Refusal(path: path, reason: reason) }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw refuse("no such file" + hint)
        }
        guard !isFolder.boolValue else { throw refuse("a folder, not a photo") }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        if size > PhotoLimits.maximumBytes {
            let head = (try? FileHandle(forReadingFrom: URL(fileURLWithPath: path)).read(upToCount: 16)) ?? nil
            let kind = PhotoBytes.kind(of: head.map { [UInt8]($0) } ?? [])?.name ?? "file"
            throw refuse(PhotoRefusal.tooLarge(bytes: size, kind: kind).description)
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw refuse("cannot be read") }
        do {
            return try PhotoBytes(checking: [UInt8](data))
        } catch {
            throw refuse(error.description)
        }
    }
}

/// A change to one's own photos (`me photo add|remove|move`), positions from 1.
public enum PhotoChange: Hashable, Sendable {
    case add(PhotoSource)
    case remove(Int)
    case move(from: Int, to: Int)
}
