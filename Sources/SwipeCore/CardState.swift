/// The four states of TanTanDemo's recycled cards, top to bottom. Only `first`
/// takes gestures; `other` waits at the back (it looks like `third` in `tantan`).
public enum CardState: String, CaseIterable, Sendable {
    case first, second, third, other

    /// 0 for `first` … 3 for `other`: the card's position in the stack.
    public var rank: Int {
        switch self {
        case .first: 0
        case .second: 1
        case .third: 2
        case .other: 3
        }
    }

    /// The state at `rank` (0...3).
    init(rank: Int) {
        self = CardState.allCases[rank]
    }
}
