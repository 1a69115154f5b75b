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

    public func dealWithoutWriting(viewer: String, memory: Ranking.FeedMemory, limit: Int, excluding: Set<String>)
        throws -> [Profile]?
    {
        try SQLiteFeed(store: self, viewer: viewer, options: .init(memory: memory))
            .nextProfilesWithoutWriting(limit: limit, excluding: excluding)
    }

    public func countImpressions(viewer: String, memory: Ranking.FeedMemory) throws {
        let feed = try SQLiteFeed(store: self, viewer: viewer, options: .init(memory: memory))
        try connection.writeTransaction { try feed.countImpressions() }
    }

    public func importProfiles(path: String, options: ImportOptions) throws -> ImportSummary {
        try SQLiteImporter(store: self, options: options).importProfiles(path: path)
    }

    /// Loads the decisions, then refits the ranking's model on the ledger
    /// as it now stands (`refitRanking`, a bounded batch) when the import
    /// stored or changed a decision and the shipped model reads the fit
    /// (`Ranking.keepsFit`).
    public func importDecisions(path: String, options: ImportOptions) throws -> ImportSummary {
        let summary = try SQLiteImporter(store: self, options: options).importDecisions(path: path)
        try refitAfterImport(summary)
        return summary
    }
}

extension Row: StoredRow {}
