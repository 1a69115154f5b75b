import Foundation
import SwipeCore
import SwipeStore

/// What `me` shows: the viewer's own profile, and what changed. The REPL,
/// JSON mode, the socket and `swipe me` all write it so.
public struct MeAnswer {
    public var profile: Profile
    /// "city saved", after `me set`.
    public var notice: String?
    package var withdrawn: [String] = []

    public init(profile: Profile, notice: String? = nil) {
        self.profile = profile
        self.notice = notice
    }

    /// The JSON object: `me`, then `notice` after a change.
    public var json: JSONValue { .object(ReplAnswer.meMembers(self)) }
}

/// One checked change `me set` asks for: a column of the profile, or a
/// preference (the place included), as `prefs` makes it.
public enum MeChange: Hashable, Sendable {
    case profile(ProfileEdit)
    case preferences(PreferencesChange)
}

extension MeInput {
    /// The words after `me` (`swipe me set city Lyon`), read as the REPL reads them.
    public static func parse(_ arguments: [String]) throws(CommandError) -> MeInput {
        let fail = { (message: String) in
            CommandError(input: (["me"] + arguments).joined(separator: " "), message: message)
        }
        guard case .me(let input) = try Command.parseMe(arguments, fail: fail) else {
            throw fail("not a me command")
        }
        return input
    }
}

extension MePhoto {
    /// The store's change for what was typed: `add` reads and checks a
    /// file (when `readingFiles`; `~` is the home folder, a relative path the
    /// working directory's) or takes an `https://` URL; any other scheme is
    /// refused naming the value.
    ///
    /// - Throws: `CommandError` naming the command and the file.
    public func change(readingFiles: Bool) throws -> PhotoChange {
        switch self {
        case .remove(let position): return .remove(position)
        case .move(let from, let to): return .move(from: from, to: to)
        case .add(let value):
            let typed = "me photo add \(value)"
            if value.lowercased().hasPrefix("https://") { return .add(.url(value)) }
            if PhotoItem.hasScheme(value) {
                throw CommandError(
                    input: typed, message: "me photo add: " + PhotoRefusal.notAllowed(value: value).description)
            }
            guard readingFiles else {
                throw CommandError(
                    input: typed,
                    message: "me photo add: a page adds a photo by uploading it; a file path is read only by "
                        + "the REPL and swipe me, on the database's machine")
            }
            let path = (value as NSString).expandingTildeInPath
            do {
                return .add(.bytes(try PhotoFile.read(path)))
            } catch let refusal as PhotoFile.Refusal {
                throw CommandError(input: typed, message: "me photo add: \(refusal)")
            }
        }
    }

    /// What was done, for the one line after the change.
    public func notice(_ change: PhotoChange) -> String {
        switch self {
        case .add: "photo added"
        case .remove(let position): "photo \(position) removed"
        case .move(let from, let to): "photo \(from) moved to \(to)"
        }
    }
}

extension MeField {
    /// The change `me set FIELD value` asks for, checked by the rule of
    /// that column (the importer's, `ProfileCheck`, in its words; the
    /// preferences' as `prefs` checks them). A refusal names the field and
    /// the value as typed.
    ///
    /// - Throws: `CommandError`.
    public func change(_ value: String) throws -> MeChange {
        do {
            switch self {
            case .name: return .profile(.name(try ProfileCheck.name(value)))
            case .age: return .profile(.age(try ProfileCheck.age(value)))
            case .gender: return .profile(.gender(ProfileCheck.optionalText(value)))
            case .city: return .profile(.city(try ProfileCheck.city(value)))
            case .bio: return .profile(.bio(try ProfileCheck.bio(value)))
            case .interests: return .profile(.interests(try ProfileCheck.interests(value)))
            case .place: return .preferences(PreferencesChange(location: .some(try PreferencesChange.location(value))))
            case .seeking: return .preferences(PreferencesChange(seeking: PreferencesChange.seeking(value)))
            case .ages: return .preferences(PreferencesChange(ages: try PreferencesChange.ages(value)))
            case .km: return .preferences(PreferencesChange(maxKm: .some(try PreferencesChange.maxKm(value))))
            }
        } catch let issue as ProfileValueIssue {
            // The value as the issue quotes it: a text over its limit is cut
            // to its first words, never echoed whole.
            let message = "me set \(rawValue): \(issue.message), not \"\(issue.value)\""
            throw CommandError(input: "me set \(rawValue) \(value)", message: message)
        } catch {
            let typed = "me set \(rawValue) \(value)"
            throw CommandError(input: typed, message: "me set \(rawValue): \(error)")
        }
    }

    /// Whether it changes who the viewer sees or is seen by (and so the
    /// deck's cards): preferences, place, age and gender.
    package var changesEligibility: Bool {
        switch self {
        case .age, .gender, .place, .seeking, .ages, .km: true
        default: false
        }
    }

    /// Whether it is rationed as preferences are (`swipe serve`): the place,
    /// the preferences, and one's own age and gender, whose repeated change
    /// could map others or read their preferences back (who is dealt whom
    /// changes with each).
    public var isPreference: Bool { changesEligibility }
}

extension ViewerScope {
    /// Applies a checked `me set` change and returns the profile as stored.
    public func apply(_ change: MeChange) throws -> Profile {
        switch change {
        case .profile(let edit): try editProfile(edit)
        case .preferences(let preferences): try editPreferences(preferences)
        }
    }
}

extension ReplSession {
    /// `me`, `me set`: the store first, then the deck follows (as after
    /// `prefs`: cards that no longer qualify leave undecided).
    package mutating func executeMe(_ input: MeInput) throws -> ReplAnswer {
        var answer = ReplAnswer(snapshot: snapshot)
        switch input {
        case .show:
            answer.me = MeAnswer(profile: try ledger.viewerProfile())
        case .set(let field, let value):
            var found = MeAnswer(profile: try ledger.apply(try field.change(value)))
            found.notice = "\(field.rawValue) saved"
            if field.changesEligibility {
                let ids = snapshot.cards.compactMap { $0.profile?.id }
                let keep = try ledger.eligible(among: ids)
                found.withdrawn = ids.filter { !keep.contains($0) }
                answer.actions = try withdrawCards(found.withdrawn)
                answer.showsDeck = !answer.actions.isEmpty
                if !found.withdrawn.isEmpty {
                    found.notice! +=
                        "; " + found.withdrawn.joined(separator: ", ")
                        + (found.withdrawn.count == 1 ? " no longer qualifies" : " no longer qualify")
                        + " and leave" + (found.withdrawn.count == 1 ? "s" : "") + " the deck"
                }
            }
            answer.snapshot = snapshot
            answer.me = found
        case .photo(let photo):
            let change = try photo.change(readingFiles: readsPhotoFiles)
            answer.me = MeAnswer(profile: try ledger.changePhotos(change), notice: photo.notice(change))
        case .export(let file):
            answer.exported = try export(to: file)
        case .erase(let confirm):
            guard confirm == ledger.viewer else {
                throw CommandError(
                    input: "me erase \(confirm)",
                    message:
                        "me erase takes your own id to confirm, \(ledger.viewer) (got \(confirm)); nothing was erased")
            }
            let erasure = try ledger.erase()
            isFinished = true
            answer.erased = erasure
            answer.note =
                "erased \(erasure.viewer): your profile and everything naming you (\(erasure.rowsRemoved) rows); "
                + "this session ends"
        }
        return answer
    }
}

extension ReplAnswer {
    /// `me erase` in JSON: who, how many rows, whose matches ended (never
    /// the tombstone: whether anyone reported the person is for moderators).
    package static func erasedMembers(_ erasure: Erasure) -> [(String, JSONValue)] {
        [
            (
                "erased",
                .object([
                    ("viewer", .string(erasure.viewer)), ("rows", .number(Double(erasure.rowsRemoved))),
                    ("unmatched", .array(erasure.unmatched.map(JSONValue.string))),
                ])
            )
        ]
    }

    /// `me` in JSON: the whole profile (it is the viewer's own), and `notice`,
    /// `withdrawn` after a change.
    package static func meMembers(_ me: MeAnswer) -> [(String, JSONValue)] {
        var members: [(String, JSONValue)] = [("me", profileObject(me.profile))]
        if let notice = me.notice { members.append(("notice", .string(notice))) }
        if !me.withdrawn.isEmpty { members.append(("withdrawn", .array(me.withdrawn.map(JSONValue.string)))) }
        return members
    }
}
