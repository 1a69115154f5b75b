import SwipeCore
import SwipeStore

/// Everything one command's answer shows, gathered before it is written as
/// text or JSON, so both formats tell the same story. An app that embeds
/// swipe reads the typed parts: the deck after the command, what the deck
/// did, the decisions recorded (with the match each made), the profile
/// opened, the lists; the rest are the interfaces' own.
public struct ReplAnswer {
    public package(set) var snapshot: DeckSnapshot
    /// What the deck did, in order (closing the detail, animations, decisions…).
    public package(set) var actions: [DeckAction] = []
    public package(set) var decisions: [(DeckDecision, RecordedDecision)] = []
    public package(set) var undone: [DeckDecision] = []
    /// The ids whose match an undo here ended (with its conversation).
    public package(set) var endedMatches: Set<String> = []
    public package(set) var history: [HistoryEntry]?
    public package(set) var matches: [Match]?
    /// `matches --with-messages`.
    package var matchActivity: [MatchActivity]?
    package var help: String?
    package var discovery: DiscoveryAnswer?
    package var conversation: ConversationAnswer?
    /// The detail page `open ID` opened.
    public package(set) var opened: Profile?
    /// `me`, `me set`.
    package var me: MeAnswer?
    /// `me erase`.
    package var erased: Erasure?
    /// `me export`.
    package var exported: ExportAnswer?
    /// `insights`: one row per period (Documentation/Insights.md).
    package var insights: [InsightRow]?
    /// `moderate …` (Documentation/Moderation.md).
    package var moderation: ModerationResult?
    /// A command that changed nothing says so (`cancel` with no drag,
    /// `reload` on a full deck), so silence never reads as success or a hang.
    public package(set) var note: String?
    public package(set) var quit = false
    /// Whether the text answer ends with the deck (or the detail page).
    package var showsDeck = false
    /// Whether the deck was what was asked for (`deck`): drawn even when
    /// the layout leaves pictures out.
    package var asked = false

    package init(snapshot: DeckSnapshot) {
        self.snapshot = snapshot
    }

    /// Whether anything was recorded that completed a match.
    public var isMatch: Bool { decisions.contains { $0.1.match != nil } }
}
