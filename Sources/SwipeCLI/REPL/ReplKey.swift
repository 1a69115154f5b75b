import SwipeCore
import SwipeSession

/// A one-key gesture typed on an empty line of an interactive session:
/// what a thumb does on a phone, without typing a command.
public enum ReplKey: String, CaseIterable, Hashable, Sendable {
    /// ← nope, → like: drawn as a drag over a few frames, then the release.
    case left, right
    /// Shift-↑ or Alt-↑: superlike (↑ and ↓ stay history recall).
    case up
    /// Space: open the top card, or back from its detail page.
    case space
    /// Backspace: undo.
    case backspace

    /// The drag frames' translations, in points: past tantan's 100-point
    /// threshold by the last one, so the release decides.
    public static let frames: [Double] = [30, 60, 90, 120]

    /// The commands the key stands for in `mode`, in order; each drag is one
    /// frame of the picture. Nothing on the empty state but undo.
    public func commands(in mode: DeckMode) -> [String] {
        switch (self, mode) {
        case (.backspace, _): ["undo"]
        case (_, .empty): []
        case (.left, .detail): ["hate"]
        case (.right, .detail): ["like"]
        case (.left, _): Self.frames.map { "drag -\(Int($0)) 0" } + ["release"]
        case (.right, _): Self.frames.map { "drag \(Int($0)) 0" } + ["release"]
        case (.up, _): ["superlike"]
        case (.space, .detail): ["back"]
        case (.space, _): ["open"]
        }
    }
}
