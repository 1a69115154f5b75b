import Foundation
import Logging
import SwipeStore
import Synchronization

/// Pushes to open sockets the matches and messages that other processes
/// store in the database this server serves (a REPL, `swipe send`, `swipe
/// import --decisions`, another `swipe serve`): on SQLite and PostgreSQL
/// alike, by reading the store's change log (`SwipeChangeLog`).
///
/// A thread of its own checks every `interval` whether the newest key of
/// the decision or the message log moved (two index lookups), and then
/// reads every row after the last one it saw, page by page, however many
/// there are. Each match and message pushed is read from the tables at that
/// moment; what a PostgreSQL NOTIFY says is only a hint to look now
/// (`poke`), never what is pushed: a forged notification pushes nothing.
///
/// Keys are the order of the logs. On SQLite they are also the order of
/// commits (one writer at a time). On PostgreSQL a transaction may commit
/// after a later key's: a key skipped over is a gap, read again at each
/// check until it shows up or `gapLifetime` passes (a rolled-back insert
/// leaves a gap for good).
///
/// An erasure (`swipe erase`, `me erase`) leaves no row naming the person,
/// only a count that moved (`ChangeMarks.erasures`): the server then checks
/// which of the people it holds open are gone (`sweepErasures`).
///
/// A match or message made by this server's own sessions is pushed at once
/// by them and met here again: `claim` lets each be pushed once only,
/// whichever path comes first.
final class ChangeWatcher: @unchecked Sendable {
    static let interval: Duration = .milliseconds(100)
    static let gapLifetime: Duration = .seconds(10)
    static let pageSize = 500

    private struct State {
        var marks: ChangeMarks?
        var decisions = KeyTrail()
        var messages = KeyTrail()
        /// The count of erasures last swept (`ChangeMarks.erasures`).
        var erasures = 0
    }

    private let backend: DatabaseServerBackend
    private let logger: Logger
    private let pushMatch: @Sendable (MatchNotice) -> Void
    private let pushMessage: @Sendable (MessageNotice) -> Void
    /// Called when the count of erasures moved: someone was erased, by
    /// this process or another. It finds who among the people the server
    /// holds open is gone and tells whom it concerns; returns how many
    /// notices it sent. It is handed `claim`, so that what this server's
    /// own sessions told is not told again.
    private let sweepErasures: @Sendable (_ claim: (String) -> Bool) throws -> Int
    private let state = Mutex(State())
    private let told = Mutex(RecentKeys(capacity: 100_000))
    /// Guards `running`, `poked` and `finished`; signalled by `poke` and `stop`.
    private let wake = NSCondition()
    private var running = false
    private var poked = false
    private var finished = true

    init(
        backend: DatabaseServerBackend, logger: Logger,
        pushMatch: @escaping @Sendable (MatchNotice) -> Void,
        pushMessage: @escaping @Sendable (MessageNotice) -> Void,
        sweepErasures: @escaping @Sendable (_ claim: (String) -> Bool) throws -> Int = { _ in 0 }
    ) {
        self.backend = backend
        self.logger = logger
        self.pushMatch = pushMatch
        self.pushMessage = pushMessage
        self.sweepErasures = sweepErasures
    }

    /// Starts after the newest rows now: what was stored before the server
    /// started is in the lists, not pushed.
    func prime() throws {
        let marks = try backend.reading { try $0.changeMarks() }
        state.withLock { state in
            state.marks = marks
            state.decisions = KeyTrail(newest: marks.decision)
            state.messages = KeyTrail(newest: marks.message)
            state.erasures = marks.erasures
        }
    }

    /// Whether the match or message named `key` is pushed for the first
    /// time now (the caller then pushes it).
    func claim(_ key: String) -> Bool {
        told.withLock { $0.insert(key) }
    }

    /// A match as told to its recipient. When both likes carry the match's
    /// moment (an import, two likes in one millisecond), each side is told.
    static func key(_ notice: MatchNotice) -> String {
        "match\u{0}\(notice.recipient)\u{0}\(notice.liker)\u{0}\(notice.matchedAt)"
    }

    static func key(_ message: Message) -> String {
        let pair = [message.sender, message.recipient].sorted()
        return "message\u{0}\(pair[0])\u{0}\(pair[1])\u{0}\(message.seq)"
    }

    /// Looks at once rather than at the next tick (a NOTIFY arrived).
    func poke() {
        wake.withLock {
            poked = true
            wake.broadcast()
        }
    }

    /// One check: reads and pushes whatever is new since the last one.
    /// Returns how many matches and messages it pushed.
    @discardableResult
    func check() throws -> Int {
        let marks = try backend.reading { try $0.changeMarks() }
        let wasPoked = wake.withLock {
            defer { poked = false }
            return poked
        }
        let wanted = state.withLock { state in
            defer { state.marks = marks }
            // A log whose newest rows were deleted (`swipe me erase`) hands
            // their keys out again (SQLite): read from its newest key now.
            if marks.decision < state.decisions.newest { state.decisions = KeyTrail(newest: marks.decision) }
            if marks.message < state.messages.newest { state.messages = KeyTrail(newest: marks.message) }
            return wasPoked || state.marks != marks || state.erasures != marks.erasures
                || !state.decisions.gaps.isEmpty || !state.messages.gaps.isEmpty
        }
        guard wanted else { return 0 }
        var pushed = 0
        let now = ContinuousClock.now
        var after = state.withLock { $0.decisions.floor }
        while true {
            let page = try backend.reading { try $0.decisions(after: after, limit: Self.pageSize) }
            for row in page where state.withLock({ $0.decisions.take(row.key, at: now) }) {
                if let match = row.match, claim(Self.key(match)) {
                    pushMatch(match)
                    pushed += 1
                }
            }
            guard page.count == Self.pageSize, let last = page.last else { break }
            after = last.key
        }
        after = state.withLock { $0.messages.floor }
        while true {
            let page = try backend.reading { try $0.messages(after: after, limit: Self.pageSize) }
            for row in page where state.withLock({ $0.messages.take(row.key, at: now) }) {
                if claim(Self.key(row.message)) {
                    pushMessage(MessageNotice(message: row.message, senderName: row.senderName))
                    pushed += 1
                }
            }
            guard page.count == Self.pageSize, let last = page.last else { break }
            after = last.key
        }
        state.withLock { state in
            state.decisions.expire(before: now - Self.gapLifetime)
            state.messages.expire(before: now - Self.gapLifetime)
        }
        // Someone was erased: the count names nobody, so who is read from
        // what the server holds open, checked against the profiles now.
        // Noted as swept only once the sweep succeeded (else: again next tick).
        if state.withLock({ $0.erasures }) != marks.erasures {
            pushed += try sweepErasures { claim($0) }
            state.withLock { $0.erasures = marks.erasures }
        }
        return pushed
    }

    /// Checks on a thread of its own every `interval` (sooner when poked) until `stop`.
    func start() {
        wake.withLock {
            running = true
            finished = false
        }
        let thread = Thread { [self] in self.watch() }
        thread.name = "swipe-change-watcher"
        thread.start()
    }

    func stop() {
        wake.withLock {
            running = false
            wake.broadcast()
            while !finished { wake.wait() }
        }
    }

    private func watch() {
        var failing = false
        defer {
            wake.withLock {
                finished = true
                wake.broadcast()
            }
        }
        while wake.withLock({ running }) {
            do {
                try check()
                if failing { logger.info("change check works again") }
                failing = false
            } catch {
                if !failing { logger.warning("change check failed (retrying): \(error)") }
                failing = true
            }
            let seconds =
                Double(Self.interval.components.attoseconds) * 1e-18
                + Double(Self.interval.components.seconds)
            wake.withLock {
                if running && !poked { _ = wake.wait(until: Date().addingTimeInterval(seconds)) }
            }
        }
    }
}

/// The keys of one log seen so far: every key up to `newest` but the gaps
/// (keys skipped over, each with when it was first missed).
struct KeyTrail {
    var newest = 0
    var gaps: [Int: ContinuousClock.Instant] = [:]
    /// A jump of keys larger than this records no gaps (a sequence moved on purpose).
    static let gapLimit = 10_000

    init(newest: Int = 0) { self.newest = newest }

    /// The key to read after: just before the oldest gap, else the newest key.
    var floor: Int { gaps.keys.min().map { $0 - 1 } ?? newest }

    /// Whether `key` is news (and notes it seen).
    mutating func take(_ key: Int, at now: ContinuousClock.Instant) -> Bool {
        if key > newest {
            if key - newest - 1 <= Self.gapLimit {
                for skipped in (newest + 1)..<key { gaps[skipped] = now }
            }
            newest = key
            return true
        }
        return gaps.removeValue(forKey: key) != nil
    }

    mutating func expire(before moment: ContinuousClock.Instant) {
        gaps = gaps.filter { $0.value >= moment }
    }
}
