import SwipeCore
import SwipeStore

extension ReplAnswer {
    /// The answer as the README's JSON-mode object, keys in the documented order:
    /// ok, command, mode, progress, like, hate, cards, then detail, decision
    /// and match, and the extras (undone, animations, history, matches, help).
    /// `profile` writes an open detail page's profile.
    package func jsonMembers(command: String, profile: (Profile) -> JSONValue) -> [(String, JSONValue)] {
        var members: [(String, JSONValue)] = [("ok", true), ("command", .string(command))]
        members += Self.deckMembers(snapshot, profile: profile)
        if let opened { members.append(("opened", profile(opened))) }
        if let decision = decisions.first {
            members.append(("decision", Self.decisionObject(decision.0, decidedAt: decision.1.decidedAt)))
            members.append(("match", .bool(isMatch)))
        }
        if let undone = undone.first {
            members.append(
                (
                    "undone",
                    .object([
                        ("profile", .string(undone.profile.id)), ("decision", .string(undone.decision.rawValue)),
                        ("via", .string(undone.via.rawValue)),
                        ("match_ended", .bool(endedMatches.contains(undone.profile.id))),
                    ])
                ))
        }
        let animations: [JSONValue] = actions.compactMap {
            guard case .animate(let timeline) = $0 else { return nil }
            return .object([
                ("name", .string(timeline.name)), ("duration", .number(timeline.duration)),
                ("keyframes", .array(timeline.keyframes.map(Self.keyframeObject))),
            ])
        }
        if !animations.isEmpty { members.append(("animations", .array(animations))) }
        if let history {
            members.append(
                (
                    "history",
                    .array(
                        history.map { entry in
                            .object([
                                ("profile", .string(entry.profile)), ("name", .string(entry.name)),
                                ("decision", .string(entry.decision.rawValue)), ("via", .string(entry.via.rawValue)),
                                ("decided_at", .string(entry.decidedAt)), ("undone_at", .optional(entry.undoneAt)),
                            ])
                        })
                ))
        }
        if let matches {
            members.append(
                (
                    "matches",
                    .array(
                        matches.map { match in
                            .object([
                                ("profile", .string(match.profile)), ("name", .string(match.name)),
                                ("matched_at", .string(match.matchedAt)),
                            ])
                        })
                ))
        }
        if let activity = matchActivity {
            members.append(
                (
                    "matches",
                    .array(
                        activity.map { match in
                            .object([
                                ("profile", .string(match.profile)), ("name", .string(match.name)),
                                ("matched_at", .string(match.matchedAt)), ("messages", .number(Double(match.messages))),
                                ("last_message_at", .optional(match.lastMessageAt)),
                            ])
                        })
                ))
        }
        if let help { members.append(("help", .string(help))) }
        if let note { members.append(("note", .string(note))) }
        if let discovery { members += Self.discoveryMembers(discovery) }
        if let conversation { members += Self.conversationMembers(conversation) }
        if let me { members += Self.meMembers(me) }
        if let erased { members += Self.erasedMembers(erased) }
        if let exported { members += exported.jsonMembers }
        if let moderation { members += Self.moderationMembers(moderation) }
        if let insights { members.append(("insights", .array(insights.map(Self.insightObject)))) }
        return members
    }

    /// The answer as the README's JSON-mode object, the whole profile on a detail page.
    package func json(command: String) -> JSONValue {
        .object(jsonMembers(command: command, profile: Self.profileObject))
    }

    package static func deckMembers(_ snapshot: DeckSnapshot, profile: (Profile) -> JSONValue) -> [(String, JSONValue)]
    {
        let mode: String
        var detail: Profile?
        switch snapshot.mode {
        case .deck: mode = "deck"
        case .empty: mode = "empty"
        case .detail(let profile):
            mode = "detail"
            detail = profile
        }
        let cards: [JSONValue] = snapshot.cards.map(cardObject)
        var members: [(String, JSONValue)] = [
            ("mode", .string(mode)), ("progress", .number(snapshot.indicators.progress)),
            ("like", .number(snapshot.indicators.like)), ("hate", .number(snapshot.indicators.hate)),
            ("cards", .array(cards)),
        ]
        if let detail { members.append(("detail", profile(detail))) }
        return members
    }

    /// One card as `cards` lists it: slot, state, profile id and name, pose.
    package static func cardObject(_ card: CardView) -> JSONValue {
        .object([
            ("slot", .number(Double(card.slot))), ("state", .string(card.state.rawValue)),
            ("profile", .optional(card.profile?.id)), ("name", .optional(card.profile?.name)),
            ("x", .number(card.pose.center.x)), ("y", .number(card.pose.center.y)),
            ("scale", .number(card.pose.scale)), ("rotation", .number(card.pose.rotationDegrees)),
            ("alpha", .number(card.pose.alpha)),
        ])
    }

    /// One moment of an animation: its time, how to ease into it, and every
    /// card's pose then (as `cards`), so a UI can play the deck's own timeline.
    package static func keyframeObject(_ keyframe: Keyframe) -> JSONValue {
        var members: [(String, JSONValue)] = [("time", .number(keyframe.time))]
        switch keyframe.curve {
        case .linear: members.append(("curve", "linear"))
        case .easeInOut: members.append(("curve", "ease-in-out"))
        case .easeOut: members.append(("curve", "ease-out"))
        case .spring(let damping, _):
            members += [("curve", "spring"), ("damping", .number(damping))]
        }
        members.append(("cards", .array(keyframe.cards.map(cardObject))))
        return .object(members)
    }

    /// A profile keyed as `swipe profiles` prints it.
    package static func profileObject(_ profile: Profile) -> JSONValue {
        .object(
            [
                ("id", .string(profile.id)), ("name", .string(profile.name)), ("age", .number(Double(profile.age))),
                ("gender", .optional(profile.gender)), ("city", .optional(profile.city)),
                ("bio", .optional(profile.bio)),
                ("photos", .array(profile.photos.map(JSONValue.string))),
                ("interests", .array(profile.interests.map(JSONValue.string))),
            ] + discoveryFields(profile))
    }

    package static func decisionObject(_ decision: DeckDecision, decidedAt: String) -> JSONValue {
        .object([
            ("profile", .string(decision.profile.id)), ("decision", .string(decision.decision.rawValue)),
            ("via", .string(decision.via.rawValue)), ("decided_at", .string(decidedAt)),
        ])
    }

    /// One row as `swipe insights --format json` prints it: every key, a
    /// ratio with no denominator as null.
    package static func insightObject(_ row: InsightRow) -> JSONValue {
        .object(
            InsightRow.keys.map { key in
                key == "period" ? (key, .string(row.period)) : (key, row.value(of: key).map(JSONValue.number) ?? .null)
            })
    }
}
