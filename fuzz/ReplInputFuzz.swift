import SwipeCore

/// libFuzzer target for the REPL command parser `Command.parse` (fuzz/run.sh
/// builds it with SwipeCLI/REPL/Command*.swift over SwipeCore). Each input
/// line is parsed as the REPL would; what parses is driven into a real deck
/// (every preset, settling at once), as `swipe repl` does.
///
/// Checked: no crash or sanitizer report; a parse error quotes its line;
/// no line holding a NUL parses; numbers that parse are finite and within
/// the deck's limit; every
/// pose and indicator of the deck stays finite, whatever was typed.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReplInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let people = (0..<5).map { Profile(id: "p\($0)", name: "P\($0)", age: 30) }
    guard var deck = try? DeckController(feed: InMemoryFeed(people)) else { preconditionFailure("no deck") }
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        let input: Command?
        do {
            input = try Command.parse(String(line))
        } catch {
            precondition(!error.message.isEmpty, "an error without a message")
            continue
        }
        precondition(!line.unicodeScalars.contains("\0"), "a line holding a NUL was accepted")
        guard let input else { continue }
        guard case let .event(event) = input else { continue }
        let limit = DeckEvent.magnitudeLimit
        switch event {
        case let .drag(dx, dy), let .release(dx, dy):
            precondition(dx.isFinite && dy.isFinite && abs(dx) <= limit && abs(dy) <= limit, "\(event) out of range")
        default: break
        }
        _ = try? deck.handle(event) { _ in }
        let snapshot = deck.snapshot
        let i = snapshot.indicators
        precondition(
            [i.like, i.hate, i.likeBorder, i.hateBorder, i.progress].allSatisfy(\.isFinite), "indicators \(i)")
        for card in snapshot.cards {
            let pose = card.pose
            precondition(
                [pose.center.x, pose.center.y, pose.scale, pose.rotation, pose.alpha].allSatisfy(\.isFinite),
                "non-finite pose \(pose) after \(line)")
        }
    }
    return 0
}
