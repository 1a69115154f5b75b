import Foundation
import Logging
import NIOPosix
import SwipeStore

/// `swipe serve`'s refit of the ranking's model (README "Ranking"): every
/// `Ranking.refitSeconds`, when decisions came since the stored fit, one
/// bounded batch (`SQLDatabase.refitRanking`: the latest
/// `Ranking.fitDecisions` decisions read, fitted outside any transaction,
/// written in one), on the server's thread pool. The decks read whatever
/// fit is stored, so a refit never holds up a card.
enum RankingRefitter {
    /// Refits now when decisions came since the stored fit; true if it did.
    /// - Parameter backend: The store the fit is read from and written to.
    @discardableResult
    static func refitIfDue(_ backend: DatabaseServerBackend) throws -> Bool {
        try backend.reading { database in
            guard Ranking.keepsFit, try database.rankingFitIsStale(every: 1) else { return false }
            try database.refitRanking()
            return true
        }
    }

    /// Refits when due, then every `interval` seconds, until cancelled. A
    /// failed refit is logged and tried again at the next turn.
    /// - Parameters:
    ///   - backend: The store.
    ///   - threadPool: Where the refit runs (it blocks on I/O).
    ///   - logger: Where a failure is told.
    ///   - interval: Seconds between refits.
    static func start(
        _ backend: DatabaseServerBackend, threadPool: NIOThreadPool, logger: Logger,
        interval: TimeInterval = Ranking.refitSeconds
    ) -> Task<Void, Never> {
        Task {
            while !Task.isCancelled {
                do {
                    _ = try await threadPool.runIfActive { try refitIfDue(backend) }
                } catch {
                    logger.warning("ranking refit failed (retrying): \(error)")
                }
                try? await Task.sleep(for: .seconds(interval))
            }
        }
    }
}
