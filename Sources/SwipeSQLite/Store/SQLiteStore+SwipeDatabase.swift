import SwipeCore
import SwipeStore

/// The SQLite file as a `SwipeDatabase`: the requirements the other
/// extensions do not already meet.
extension SQLiteStore: SwipeDatabase {
    public var location: String { connection.path }

    public func feed(viewer: String) throws -> any ProfileFeed { try SQLiteFeed(store: self, viewer: viewer) }

    public func feed(viewer: String, memory: Ranking.FeedMemory) throws -> any ProfileFeed {
        try SQLiteFeed(store: self, viewer: viewer, options: .init(memory: memory))
    }

    public func importProfiles(path: String, options: ImportOptions) throws -> ImportSummary {
        try SQLiteImporter(store: self, options: options).importProfiles(path: path)
    }

    public func importDecisions(path: String, options: ImportOptions) throws -> ImportSummary {
        try SQLiteImporter(store: self, options: options).importDecisions(path: path)
    }
}

extension Row: StoredRow {}
