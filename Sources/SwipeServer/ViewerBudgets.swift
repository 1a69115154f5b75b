import Synchronization

/// One `CommandBudget` per viewer, shared by all their sockets: what a
/// viewer may do only now and then (change their preferences and place),
/// and their commands as a whole, must not be renewed by opening another
/// socket.
final class ViewerBudgets: Sendable {
    private let budgets = Mutex<[String: CommandBudget]>([:])
    let perSecond: Double
    let burst: Double

    init(perHour: Double, burst: Double) {
        perSecond = perHour / 3600
        self.burst = burst
    }

    init(perSecond: Double, burst: Double) {
        self.perSecond = perSecond
        self.burst = burst
    }

    /// Takes one from `viewer`'s budget at `now`; false when it is spent.
    func spend(_ viewer: String, at now: ContinuousClock.Instant = .now) -> Bool {
        budgets.withLock { budgets in
            budgets[viewer, default: CommandBudget(perSecond: perSecond, burst: burst)].spend(at: now)
        }
    }
}
