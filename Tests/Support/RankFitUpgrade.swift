import Foundation
import SwipeStore
import Testing

/// What the upgrade to version 8 (the ranking's fit, README "Ranking") must
/// leave in a database holding `AnalystViewsSample`'s history, on either
/// backend: the two tables, empty and never fitted (so the feed ranks by the
/// like rates and the fit is due), then a refit that reads the four standing
/// decisions (the undone one left out) and stores a row for each of the
/// three people they name.
public enum RankFitUpgrade {
    public static func expectNeverFittedThenFitted(
        _ store: any SwipeDatabase, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let live = try LiveSchema(store)
        #expect(try live.count("SELECT count(*) AS n FROM rank_fit") == 0, sourceLocation: sourceLocation)
        #expect(
            try live.count("SELECT count(*) AS n FROM rank_fit_mean WHERE mean IS NULL") == 1,
            sourceLocation: sourceLocation)
        #expect(try store.rankingFitIsStale(every: Ranking.refitEvery), sourceLocation: sourceLocation)
        let fit = try store.refitRanking(ridge: Ranking.fitRidge, limit: Ranking.fitDecisions, at: nil)
        #expect(fit.decisions == 4, sourceLocation: sourceLocation)
        #expect(try live.count("SELECT count(*) AS n FROM rank_fit") == 3, sourceLocation: sourceLocation)
        #expect(try live.count("SELECT through AS n FROM rank_fit_mean") == 5, sourceLocation: sourceLocation)
        #expect(try !store.rankingFitIsStale(every: 1), sourceLocation: sourceLocation)
    }
}
