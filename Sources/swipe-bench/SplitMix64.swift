/// SplitMix64 (Steele, Lea, Flood 2014): a tiny seeded generator, so the same
/// seed writes the same benchmark files on every machine and Swift version
/// (the standard library's generator is neither seedable nor stable).
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform integer in `range` (via the standard library's unbiased reduction).
    mutating func int(in range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }

    /// True with probability `p`.
    mutating func chance(_ p: Double) -> Bool { Double(next() >> 11) / Double(1 << 53) < p }

    /// One element of a non-empty array.
    mutating func pick<T>(_ items: [T]) -> T { items[int(in: 0...(items.count - 1))] }
}
