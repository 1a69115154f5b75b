import SwipeCore
import SwipeSession
import SwipeStore

extension ReplAnswer {
    /// Text lines for a discovery command: what changed, the preferences, the likes.
    static func discoveryLines(_ answer: DiscoveryAnswer, style: ReplStyle) -> [String] {
        var lines: [String] = []
        if let notice = answer.notice { lines.append(TerminalText.sanitized(notice)) }
        if let profile = answer.preferences, answer.notice == nil {
            lines += Self.preferenceLines(profile)
        }
        if let (profile, reasons) = answer.reasons {
            lines.append(
                TerminalText.sanitized(profile) + ": "
                    + (reasons.isEmpty
                        ? "no particular reason" : reasons.map { TerminalText.sanitized($0) }.joined(separator: " · ")))
        }
        if let likes = answer.likes {
            lines +=
                likes.isEmpty
                ? ["nobody is waiting for your decision"]
                : likes.map { liker in
                    let mark = liker.decision == .superlike ? style.paint("★", .superlike) : style.paint("♥", .like)
                    return mark + " " + TerminalText.sanitized(liker.profile) + " " + TerminalText.sanitized(liker.name)
                        + style.paint(" · " + liker.decision.rawValue + "d " + liker.likedAt, .dim)
                }
        }
        return lines
    }

    /// The viewer's preferences, one per line, as `prefs` shows them.
    static func preferenceLines(_ profile: Profile) -> [String] {
        let p = profile.preferences
        return [
            "seeking   " + (p.seeking.isEmpty ? "everyone" : TerminalText.sanitized(p.seeking.joined(separator: ";"))),
            "age       \(p.ageMin)-\(p.ageMax)",
            "km        " + (p.maxKm.map(Self.kilometres) ?? "no limit"),
            "location  " + (profile.location.map { "\($0.lat), \($0.lon)" } ?? "unknown"),
        ]
    }

    static func kilometres(_ km: Double) -> String {
        km.rounded() == km && km < 1e15 ? String(Int(km)) : String(km)
    }
}
