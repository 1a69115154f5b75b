/// How many commands a socket may send: a token bucket that holds `burst`
/// commands and refills `perSecond` a second. A person dragging sends one
/// `drag` per animation frame (60 a second at most); a script looping on
/// a socket as fast as the server answers runs dry and is cut off, and
/// because every socket has its own bucket, other viewers never notice.
public struct CommandBudget: Sendable {
    public let perSecond: Double
    public let burst: Double
    private var tokens: Double
    private var last: ContinuousClock.Instant?

    public init(perSecond: Double, burst: Double) {
        self.perSecond = perSecond
        self.burst = burst
        tokens = burst
    }

    /// Takes one command's worth at `now`; false when the bucket is empty.
    public mutating func spend(at now: ContinuousClock.Instant) -> Bool {
        if let last {
            let elapsed = last.duration(to: now)
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            tokens = min(burst, tokens + max(0, seconds) * perSecond)
        }
        last = now
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}
