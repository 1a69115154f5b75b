import SwipeCore
import SwipeSession

/// The interactive prompt says where you are: `swipe> ` on the deck,
/// `swipe[detail]> ` on a profile's detail page, `swipe[empty]> ` when the
/// feed is dry (`reload` asks again).
public enum ReplPrompt {
    public static func text(for mode: DeckMode) -> String {
        switch mode {
        case .deck: "swipe> "
        case .detail: "swipe[detail]> "
        case .empty: "swipe[empty]> "
        }
    }
}
