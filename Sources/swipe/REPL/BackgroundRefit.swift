import Foundation
import SwipeStore

/// The ranking's refit when a REPL opens on a stale fit (never fitted, or
/// `Ranking.refitEvery` decisions since), run on a thread and a connection
/// of its own while the person swipes.
///
/// Fitting the newest `Ranking.fitDecisions` decisions and writing one row
/// per person took 0.96 s before the first card at 200,000 decisions, once
/// every 1,000 decisions made anywhere. The deck opens on the fit it finds
/// (1,000 decisions old at most); the next ranking after the refit commits
/// reads the new one. The session waits for the refit before the process
/// ends (`wait`), so the work is never thrown away half done. A refit that
/// fails changes nothing (its write is one transaction) and is told in one
/// line on standard error: the session goes on with the old fit.
final class BackgroundRefit: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    /// Written by the thread before `done` is signalled; read after.
    private var failure: (any Error)?

    /// Starts the refit on a connection `open` makes (one the session does
    /// not use) when `store`'s fit is stale; nil when it is current or the
    /// shipped model does not read it.
    static func startIfStale(
        _ store: any SwipeDatabase, open: () throws -> any SwipeDatabase
    ) throws -> BackgroundRefit? {
        guard Ranking.keepsFit, try store.rankingFitIsStale(every: Ranking.refitEvery) else { return nil }
        let refit = BackgroundRefit()
        let box = UncheckedStore(store: try open())
        let thread = Thread {
            do {
                _ = try box.store.refitRanking()
            } catch {
                refit.failure = error
            }
            refit.done.signal()
        }
        thread.name = "swipe-refit"
        thread.start()
        return refit
    }

    /// Waits for the refit to end; its failure, if any, as one line for standard error.
    func wait() -> String? {
        done.wait()
        return failure.map { "swipe: the ranking's refit failed, the old fit stays: \($0)" }
    }

    /// The refit's own connection, handed to its thread and used there alone.
    private struct UncheckedStore: @unchecked Sendable {
        let store: any SwipeDatabase
    }
}
