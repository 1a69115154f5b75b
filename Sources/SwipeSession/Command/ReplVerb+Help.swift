extension ReplVerb {
    /// How to type it, as `help` shows it.
    public var usage: String {
        switch self {
        case .drag: "drag DX DY"
        case .release: "release [VX VY]"
        case .cancel: "cancel"
        case .like: "like [PROFILE_ID]"
        case .hate: "hate | nope [PROFILE_ID]"
        case .superlike: "superlike [PROFILE_ID]"
        case .open: "open | tap | profile [PROFILE_ID]"
        case .back: "back"
        case .undo: "undo"
        case .deck: "deck"
        case .history: "history [PROFILE_ID] [--since D …]"
        case .matches: "matches [--with-messages] [--since D …]"
        case .reload: "reload"
        case .physics: "physics NAME"
        case .view: "view [compact|full]"
        case .prefs: "prefs [age|seeking|km|location VALUE]"
        case .me: "me [set … | photo … | export [FILE] | erase ID]"
        case .likes: "likes [--since D] [--until D]"
        case .why: "why"
        case .block: "block [PROFILE_ID]"
        case .unblock: "unblock PROFILE_ID"
        case .unmatch: "unmatch PROFILE_ID"
        case .report: "report PROFILE_ID REASON…"
        case .chat: "chat PROFILE_ID"
        case .say: "say PROFILE_ID TEXT…"
        case .inbox: "inbox [--since D] [--until D]"
        case .insights: "insights [--by PERIOD] [--all] …"
        case .acknowledge: "acknowledge"
        case .moderate: "moderate ACTION …"
        case .help: "help [COMMAND]"
        case .quit: "quit | exit"
        }
    }

    /// One line for the command table.
    public var summary: String {
        switch self {
        case .drag: "move the top card DX DY points from where it began"
        case .release: "lift the finger: the card flies out or springs back"
        case .cancel: "abandon the drag: every card springs back"
        case .like: "like button: the top card flies right"
        case .hate: "nope button: the top card flies left"
        case .superlike: "star button: the top card flies up"
        case .open: "open the top card's detail page"
        case .back: "close the detail page"
        case .undo: "bring the last decided card back on top"
        case .deck: "draw the deck again"
        case .history: "your decisions, newest first"
        case .matches: "people who liked you back"
        case .reload: "ask for more cards (after the deck ran dry)"
        case .physics: "switch physics: tantan, draggable, stack, scrub"
        case .view: "under the picture: one line of numbers, or every card's pose"
        case .prefs: "who you want to see: show, or change one preference"
        case .me: "your own profile: show, change, export or erase it"
        case .likes: "people who like you and wait for your decision"
        case .why: "why the top card is in your deck"
        case .block: "hide someone from you and you from them"
        case .unblock: "lift your block"
        case .unmatch: "end a match, for good"
        case .report: "report someone to the moderators (blocks them too)"
        case .chat: "talk with a match: each line you type is sent (/back leaves)"
        case .say: "send a match one message from anywhere"
        case .inbox: "your conversations: last message, unread, newest first"
        case .insights: "your likes, matches and conversations per day, week or month"
        case .acknowledge: "say you have read a moderator's warning"
        case .moderate: "moderators: the queue, evidence, bans, warnings, the log"
        case .help: "this list, or one command in detail"
        case .quit: "end the session (Ctrl-D too)"
        }
    }

    /// What `help COMMAND` teaches: what it does, the rule behind it, an example.
    public var details: String {
        switch self {
        case .drag:
            """
            DX DY is the translation in points since the gesture began (screen 375 × 667,
            card 350 × 400); positive DX is right, positive DY is down. In tantan:
            progress = max(|DX|,|DY|)/100 − 0.15 (clamped to 0…1),
            rotation = (1 − x/187.5)·22.5°, like = DX/100, nope = −DX/100.
            Plain decimal numbers (60, -10, 1.5e2) within ±\(Int(Command.numberLimit)).
            Example: drag 60 -10   (like 0.6, progress 0.45, rotated −7.2°)
            """
        case .release:
            """
            Ends the gesture. In tantan the card flies out when |DX| > 100 (right = like,
            left = hate), otherwise every card springs back. A flick of |VX| ≥ 1100
            points/s in the direction of DX also throws the card out.
            Example: drag 40 0, then release 1500 0   (a flick: like)
            """
        case .like, .hate, .superlike:
            """
            The bottom button: a 0.8 s animation (recoil, back, fly out) that decides the
            top card. On the detail page it first closes the page, then runs the same
            animation. With a profile id, decides about someone you met in likes,
            matches or history (a like back from likes), with the same rules.
            Example: \(rawValue), or \(rawValue) m-3
            """
        case .open:
            """
            Opens the top card's whole profile: name, age, city, bio, interests, photos.
            From there: like, hate, superlike or back. open ID (or profile ID) opens
            someone you met in likes, matches, inbox or history the same way.
            Example: open, or open m-3
            """
        case .cancel:
            """
            Ends the gesture without deciding, as when the system interrupts a pan:
            every card springs back (0.5 s). Buttons, open and undo are refused mid-drag;
            release or cancel first.
            Example: drag 150 0, then cancel   (no like, although 150 > 100)
            """
        case .back:
            """
            Closes the detail page and returns to the deck, deciding nothing.
            Example: back
            """
        case .undo:
            """
            Takes back the last decision: the card returns on top and the decision stays
            in the history, stamped as undone. A match it made is undone too.
            Example: undo
            """
        case .deck:
            """
            Draws the deck and its numbers again without changing anything.
            Example: deck
            """
        case .history:
            """
            Lists your decisions, newest first, with how each was made (drag, button,
            detail) and when. With a profile id, only the decisions about that profile;
            quote an id that holds spaces.
            --since D and --until D keep the decisions made in that window (a UTC date,
            2026-11-20, or time; a date as --until means its whole day).
            Example: history m-1   or   history "an id"   or   history --since 2026-11-20
            """
        case .matches:
            """
            Lists the people you liked who liked you back, newest match first.
            --with-messages adds each conversation's message count and last message time;
            --since D and --until D keep the matches made in that window.
            Example: matches   or   matches --since 2026-11-01 --until 2026-11-07
            """
        case .reload:
            """
            Asks the database for cards again: after the deck ran dry, or after
            importing more profiles.
            Example: reload
            """
        case .physics:
            """
            tantan (default): drop distance 100, cards below grow as you drag.
            draggable: removed past half a card's width; a vertical throw is
            superlike (up) or hate (down).
            stack: three cards inset by 10; like when the centre passes x 400,
            hate below −65.
            scrub: the drag scrubs the fly-out to the right; release finishes it
            (like), but a card at rest (dragged left, or not at all) stays.
            Not during a drag or an animation. Example: physics stack
            """
        case .view:
            """
            compact (the default): the picture and one line of numbers (physics,
            gesture, progress, like and nope, the top card's rotation).
            full: also every card's slot, profile, centre, scale, rotation and alpha.
            view alone says which is on. Example: view full
            """
        case .prefs:
            """
            Your feed shows only people who fit your preferences AND whose preferences
            you fit: gender (seeking), age window, distance (km, by great circle).
            prefs                      show them
            prefs age 25-35            ages from 25 to 35 (18–120)
            prefs seeking f;m          genders you want to see; any = everyone
            prefs km 50                at most 50 km away; off = no limit
            prefs location 52.52 13.40 where you are; none forgets it
            Cards in the deck that no longer qualify leave it (undecided) and new ones
            are dealt. People who like you come first: superlikes, then likes.
            Example: prefs age 25-35
            """
        case .me:
            """
            Your own profile, as others see it on the detail page, and your preferences.
            me                         show it
            me set name TEXT           required, trimmed
            me set age 31              a whole number from 18 to 120
            me set gender|city TEXT    "" for none
            me set bio TEXT…           kept as typed ("" for none)
            me set interests A;B;C     a ;-separated list ("" for none)
            me set place 45.76,4.84    where you are (LAT,LON); none forgets it
            me set seeking|ages|km …   as prefs seeking, prefs age, prefs km
            me photo add FILE|URL      a JPEG, PNG or WebP (metadata stripped), or an https:// URL
            me photo remove N          N counts from 1, as me lists them
            me photo move N M          photo N goes to place M
            me export [FILE]           all swipe holds about you (the JSON of swipe export),
                                       shown, or written to FILE (replaced whole, mode 0600)
            me erase ID                delete yourself and every row naming you, for good;
                                       your own id, typed again, confirms it
            A value is the rest of the line exactly as typed: apostrophes, quotes and
            spaces are yours (me set bio I'm a "night" owl). Each is checked as swipe
            import checks that column, in the same words.
            Example: me set city Lyon, me export ~/my-swipe-data.json
            """
        case .why:
            """
            The top card's reasons, in words: likes you, or superlikes you (only when
            likes lists them). After the people who like you, the deck ranks those
            who use swipe first, then by how likely you both like each other, and
            pushes down whoever has been shown more than their share today.
            Example: why
            """
        case .likes:
            """
            Lists who holds a like or superlike of you that you have not decided:
            superlikes first, then the oldest likes. They also come first in the deck.
            --since D and --until D keep the likes that came in that window.
            Example: likes   or   likes --since 2026-11-20
            """
        case .block:
            """
            Blocks a profile: neither of you sees the other, can decide about the other
            or is listed to the other, and a match between you ends. On a detail page,
            block alone blocks the profile shown and closes the page; its card leaves
            the deck undecided. unblock lifts it.
            Example: block m-3
            """
        case .unblock:
            """
            Lifts a block you made. A match the block ended stays ended.
            Example: unblock m-3
            """
        case .unmatch:
            """
            Ends a match for both of you. It is final: the two of you never match
            again, even after an undo and a new like.
            Example: unmatch m-3
            """
        case .report:
            """
            Stores a report for the moderators (swipe reports lists them) and blocks
            the profile; the report keeps your last 50 messages with them. In a chat,
            /report REASON reports the person you are talking to.
            Example: report m-3 rude messages
            """
        case .chat:
            """
            Enters your conversation with a match: the prompt becomes swipe[chat NAME]>,
            the last 20 messages are shown (and so read), and each line you type is sent.
            /back returns to the deck; /report REASON reports them (as report does: it
            blocks them, ends the conversation for both and keeps your last 50 messages
            with the report) and returns to the deck; /say TEXT sends a line as it is
            (one that begins with / or with the word report, which are not sent
            otherwise); /help lists these; /quit ends the session. An unmatch or a
            block ends the conversation for both. Rules (swipe rules) may say who writes first
            (first-move), how long a match waits for its first message (match-expiry)
            and how many conversations you open a day (first-messages-per-day); a
            message holds at most 2000 characters.
            Example: chat m-3
            """
        case .say:
            """
            Sends one message to a match without entering the chat. The message is the
            rest of the line exactly as typed (I'm, "quotes", spaces and all). --id ID
            names the send: saying the same line again with the same id stores nothing twice.
            Example: say m-3 I'm free at eight   or   say --id 42 m-3 see you at eight
            """
        case .inbox:
            """
            Lists your matches with the last message and how many you have not read,
            newest first; a match that expired with no first message says so.
            --since D and --until D keep the conversations whose last message (or match,
            before the first) is in that window.
            Example: inbox   or   inbox --since 2026-11-20
            """
        case .insights:
            """
            insights [--by day|week|month] [--since D] [--until D] [--all]
            Counts what became of your likes over time, one row per UTC day (or ISO week,
            or month): likes, superlikes, hates, matches, matches per 100 likes,
            conversations, replies, and the median hours to a first message. --since
            and --until take dates (2026-11-20) or times; by default the last 12
            periods up to today. A moderator's --all counts the whole market.
            Example: insights --by week   or   insights --since 2026-11-01 --until 2026-11-27
            """
        case .acknowledge:
            """
            A moderator's warning is shown at the start of each session until you
            acknowledge it; this says you have read every one.
            Example: acknowledge
            """
        case .moderate:
            """
            For moderators (swipe moderate grant ID gives the role). Every action is
            written to the append-only log.
              moderate queue                      open reports and flags, oldest first
              moderate show ITEM                  one item with its evidence (12, flag-3)
              moderate ban ID [--days N] REASON…  suspend: links void, never dealt, no sends
              moderate unban ID                   lift a suspension
              moderate warn ID REASON…            shown at their next session until acknowledged
              moderate remove-photo ID N REASON…  remove their Nth photo
              moderate resolve ITEM NOTE…         close a report or flag
              moderate log                        every moderator action
              moderate grant ID | revoke ID       give or take the role
            Example: moderate ban p-24 --days 7 spam links in every message
            """
        case .help:
            """
            Lists the commands, or explains one.
            Example: help drag
            """
        case .quit:
            """
            Ends the session (so does Ctrl-D on an empty line). Decisions are saved
            as they are made.
            Example: quit
            """
        }
    }

    /// The full help: every command with its usage and summary.
    public static var overview: String {
        let width = allCases.map(\.usage.count).max() ?? 0
        let rows = allCases.map { "  " + TerminalText.padded($0.usage, to: width) + "  " + $0.summary }
        return (["Commands (help COMMAND explains one):"] + rows + [""] + keys).joined(separator: "\n")
    }

    /// The one-key gestures of an interactive session (README "The REPL").
    public static let keys = [
        "Keys on an empty line (at a terminal):",
        "  ←  nope     →  like       (drawn as a drag over a few frames, then the release)",
        "  Shift-↑ or Alt-↑  superlike     Space  open (back, on the detail page)",
        "  Backspace  undo     ↑ ↓  recall earlier lines     Tab  complete",
    ]
}
