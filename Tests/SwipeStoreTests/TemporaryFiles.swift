import Foundation
import SwipeCSV
import SwipeCore
import SwipeSQLite
import SwipeStore
import SwipeTestSupport

extension TemporaryFolder {
    /// A new store in the folder holding profiles with the given ids (age 30).
    func store(profiles ids: [String] = []) throws -> SQLiteStore {
        let store = try SQLiteStore(path: path + "/test.sqlite")
        for id in ids { try store.upsert(Profile(id: id, name: "Name " + id, age: 30)) }
        return store
    }
}

/// An import through the store's protocol (`importProfiles`, `importDecisions`),
/// whichever backend holds it, shaped as the tests call it.
struct DatabaseImport {
    let store: any SwipeDatabase
    var options = ImportOptions()

    func importProfiles(path: String) throws -> ImportSummary { try store.importProfiles(path: path, options: options) }
    func importDecisions(path: String) throws -> ImportSummary {
        try store.importDecisions(path: path, options: options)
    }
}

func importing(_ store: any SwipeDatabase, skipInvalid: Bool = false) -> DatabaseImport {
    DatabaseImport(store: store, options: ImportOptions(skipInvalid: skipInvalid))
}
