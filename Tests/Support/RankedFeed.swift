import Foundation
import SwipeCore
@_spi(Benchmarks) import SwipePostgres
@_spi(Benchmarks) import SwipeSQLite
import SwipeStore

/// The feed of `viewer` on either backend with the moment fixed (`clock`),
/// for the ranking's model tests: `records` false only looks (no activity
/// stamp, no impressions counted). On SQLite `cellLimit` 0 walks by key.
public func rankedFeed(
    _ store: any SwipeDatabase, viewer: String, cellLimit: Int? = nil, records: Bool = true,
    model: Ranking.Model = .standard, clock: @escaping () -> Date
) throws -> any ProfileFeed {
    if let sqlite = store as? SQLiteStore {
        return try SQLiteFeed(
            store: sqlite, viewer: viewer,
            options: .init(cellLimit: cellLimit, records: records, clock: clock, model: model))
    }
    if let postgres = store as? PostgresStore {
        return try PostgresFeed(
            connection: postgres.connection, viewer: viewer,
            options: .init(cellLimit: cellLimit, records: records, clock: clock, model: model))
    }
    preconditionFailure("no ranked feed for \(type(of: store))")
}

extension DiscoveryModel {
    /// The shipped model with the fitted appeal and generosity on (as it
    /// ships: Documentation/Discovery.md, the ablation): what the model
    /// tests with a fit deal by.
    public static var fittedModel: Ranking.Model {
        var model = Ranking.Model.standard
        model.off.remove(.appeal)
        return model
    }
}
