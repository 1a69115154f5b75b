import Foundation
import SwipeCore
import SwipeStore

/// A fresh folder per test, removed when the value is dropped.
final class TemporaryFolder {
    let path: String

    init() {
        path = NSTemporaryDirectory() + "swipe-store-tests-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Writes `text` to `name` in the folder and returns its path.
    func file(_ name: String, _ text: String) -> String {
        let file = path + "/" + name
        FileManager.default.createFile(atPath: file, contents: Data(text.utf8))
        return file
    }

    /// A new store in the folder holding profiles with the given ids (age 30).
    func store(profiles ids: [String] = []) throws -> Store {
        let store = try Store(path: path + "/test.sqlite")
        for id in ids { try store.upsert(Profile(id: id, name: "Name " + id, age: 30)) }
        return store
    }
}
