/// Twelve texts that a parser of command lines mangles (issue 37): each must
/// survive every path byte for byte, its ends trimmed, on the REPL, JSON
/// mode, `swipe send`, the socket and the page.
public enum HostileTexts {
    public static let all: [String] = [
        "I'm free at 8, aren't you?",
        #"she said "maybe"  and "quoted"  x"#,
        #"C:\path\to\file and a \" and \\ too"#,
        "runs   of     spaces   inside",
        "\u{301}a leading combining mark",
        "family 👩‍👩‍👧‍👦 and a flag 🏳️‍🌈",
        "שלום עליכם and مرحبا بكم",
        "see you --id 42 later",
        "/back is only a word here",
        "<script>alert('x')</script> & <b>bold</b>",
        "a\ttab inside",
        String(repeating: "0123456789", count: 200),
    ]
}
