/// `view compact|full`: under the picture, one line of numbers (compact) or
/// also every slot's pose (full).
public enum ReplView: String, CaseIterable, Hashable, Sendable {
    case compact, full
}
