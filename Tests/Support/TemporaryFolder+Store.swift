import Foundation
import SwipeCSV
import SwipeCore
import SwipeSQLite
import SwipeStore

extension TemporaryFolder {
    /// A new store in the folder holding profiles with the given ids (age 30).
    public func store(profiles ids: [String] = []) throws -> SQLiteStore {
        let store = try SQLiteStore(path: path + "/test.sqlite")
        for id in ids { try store.upsert(Profile(id: id, name: "Name " + id, age: 30)) }
        return store
    }
}

/// An import through the store's protocol (`importProfiles`, `importDecisions`),
/// whichever backend holds it, shaped as the tests call it.
public struct DatabaseImport {
    public let store: any SwipeDatabase
    public var options = ImportOptions()

    public func importProfiles(path: String) throws -> ImportSummary {
        try store.importProfiles(path: path, options: options)
    }
    public func importDecisions(path: String) throws -> ImportSummary {
        try store.importDecisions(path: path, options: options)
    }
}

public func importing(_ store: any SwipeDatabase, skipInvalid: Bool = false) -> DatabaseImport {
    DatabaseImport(store: store, options: ImportOptions(skipInvalid: skipInvalid))
}
