import Foundation
import SwipeCore
import SwipeStore
import SwipeSQLite
import SwipeCSV
import SwipeTestSupport

extension TemporaryFolder {
    /// A new store in the folder holding profiles with the given ids (age 30).
    func store(profiles ids: [String] = []) throws -> Store {
        let store = try Store(path: path + "/test.sqlite")
        for id in ids { try store.upsert(Profile(id: id, name: "Name " + id, age: 30)) }
        return store
    }
}
