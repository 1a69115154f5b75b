import Testing

@testable import SwipeCore

/// p0, p1, … with distinct ids.
func people(_ count: Int, from start: Int = 0) -> [Profile] {
    (start..<start + count).map { Profile(id: "p\($0)", name: "Person \($0)", age: 20 + $0 % 50) }
}

func deck(_ count: Int, physics: PhysicsKind = .tantan, settles: Bool = true) throws
    -> DeckController<InMemoryFeed>
{
    try DeckController(feed: InMemoryFeed(people(count)), physics: physics, settlesImmediately: settles)
}

extension DeckController {
    /// `handle` with a recorder that accepts everything.
    @discardableResult
    mutating func send(_ event: DeckEvent) throws -> DeckOutcome {
        try handle(event) { _ in }
    }
}

extension DeckSnapshot {
    /// Profile ids in state order (nil for parked slots).
    var ids: [String?] { cards.map { $0.profile?.id } }
    var slots: [Int] { cards.map(\.slot) }
}

extension DeckOutcome {
    var timelineNames: [String] {
        actions.compactMap { if case let .animate(line) = $0 { line.name } else { nil } }
    }
}

func expectClose(
    _ actual: Double, _ expected: Double, _ what: String = "",
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(abs(actual - expected) <= 1e-9, "\(what): \(actual) is not \(expected)", sourceLocation: sourceLocation)
}

/// Checks a pose against hand-worked numbers (rotation in degrees).
func expectPose(
    _ pose: CardPose, x: Double, y: Double, scale: Double = 1, degrees: Double = 0, alpha: Double = 1,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    expectClose(pose.center.x, x, "x", sourceLocation: sourceLocation)
    expectClose(pose.center.y, y, "y", sourceLocation: sourceLocation)
    expectClose(pose.scale, scale, "scale", sourceLocation: sourceLocation)
    expectClose(pose.rotationDegrees, degrees, "degrees", sourceLocation: sourceLocation)
    expectClose(pose.alpha, alpha, "alpha", sourceLocation: sourceLocation)
}

/// Drags to (dx, dy) and releases with (vx, vy); returns the release outcome.
extension DeckController {
    mutating func swipe(_ dx: Double, _ dy: Double = 0, vx: Double = 0, vy: Double = 0) throws -> DeckOutcome {
        try send(.drag(dx: dx, dy: dy))
        return try send(.release(vx: vx, vy: vy))
    }
}
