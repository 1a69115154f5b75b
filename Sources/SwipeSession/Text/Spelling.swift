/// "Did you mean …?" for a mistyped word: the closest known word by edit
/// distance, counting a swap of two neighbouring letters as one edit
/// (`histroy` → `history`), when it is close enough to be a likely typo.
public enum Spelling {
    /// The one word of `candidates` nearest to `word` (case-insensitive),
    /// within 1 edit for words up to 4 letters and 2 beyond; nil when none
    /// is, or when two are equally near.
    public static func suggestion(for word: String, among candidates: [String]) -> String? {
        let typed = Array(word.lowercased())
        let allowed = typed.count <= 4 ? 1 : 2
        var best: (word: String, distance: Int)?
        var tied = false
        for candidate in candidates {
            // The distance is at least the difference in length: a word far
            // longer than any command (a pasted megabyte) costs nothing.
            guard abs(candidate.count - typed.count) <= allowed else { continue }
            let distance = editDistance(typed, Array(candidate.lowercased()))
            guard distance <= allowed else { continue }
            if let current = best, distance >= current.distance {
                if distance == current.distance && candidate != current.word { tied = true }
                continue
            }
            best = (candidate, distance)
            tied = false
        }
        return tied ? nil : best?.word
    }

    /// Optimal string alignment distance: insertions, deletions,
    /// substitutions and transpositions of adjacent characters, each 1.
    public static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
