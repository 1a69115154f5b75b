/// Runs the compared contenders interleaved — A B A B … — so that drift on a
/// shared machine (other builds, page cache, thermal) falls on both alike.
/// Each contender returns the samples of one run (seconds); setup it does not
/// want timed stays outside its own clock. One untimed warm-up round first.
enum Alternation {
    static func run(runs: Int, warmUp: Bool = true, _ contenders: [() throws -> Samples]) throws -> [[Samples]] {
        if warmUp { for contender in contenders { _ = try contender() } }
        var results = Array(repeating: [Samples](), count: contenders.count)
        for _ in 0..<runs {
            for (index, contender) in contenders.enumerated() { results[index].append(try contender()) }
        }
        return results
    }
}

extension Array where Element == Samples {
    /// The median over runs of each run's median.
    var medianOfMedians: Double { Samples(map(\.median)).median }

    /// Every run's samples together (for p99 and p999).
    var pooled: Samples { reduce(into: Samples()) { $0.append(contentsOf: $1) } }
}
