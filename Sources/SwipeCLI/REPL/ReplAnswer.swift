import SwipeCore
import SwipeStore

/// Everything one command's answer shows, gathered before it is written as
/// text or JSON, so both formats tell the same story.
struct ReplAnswer {
    var snapshot: DeckSnapshot
    /// What the deck did, in order (closing the detail, animations, decisions…).
    var actions: [DeckAction] = []
    var decisions: [(DeckDecision, RecordedDecision)] = []
    var undone: [DeckDecision] = []
    /// The ids whose match an undo here ended (with its conversation).
    var endedMatches: Set<String> = []
    var history: [HistoryEntry]?
    var matches: [Match]?
    var help: String?
    var discovery: DiscoveryAnswer?
    var conversation: ConversationAnswer?
    /// The detail page `open ID` opened.
    var opened: Profile?
    /// `me`, `me set`.
    var me: MeAnswer?
    /// `me erase`.
    var erased: Erasure?
    /// `me export`.
    var exported: ExportAnswer?
    /// `moderate …` (Documentation/Moderation.md).
    var moderation: ModerationResult?
    /// A command that changed nothing says so (`cancel` with no drag,
    /// `reload` on a full deck), so silence never reads as success or a hang.
    var note: String?
    var quit = false
    /// Whether the text answer ends with the deck (or the detail page).
    var showsDeck = false
    /// Whether the deck was what was asked for (`deck`): drawn even when
    /// the layout leaves pictures out.
    var asked = false

    init(snapshot: DeckSnapshot) {
        self.snapshot = snapshot
    }

    /// Whether anything was recorded that completed a match.
    var isMatch: Bool { decisions.contains { $0.1.match != nil } }
}
