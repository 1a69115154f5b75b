import SwipeCore

extension Rules {
    /// What `setRule(name, value)` stores under `settings.name = "rule." + name`:
    /// a count from 0 to 1000000 for the daily limits, any|last|passes|off
    /// for rewind; nil (the row deleted) for a limit `off` or rewind `any`,
    /// the defaults. Any backend's `setRule` checks its value here.
    ///
    /// - Throws: `StoreError.invalidValue` naming the rule and what it takes.
    public static func storedSetting(_ name: String, _ value: String) throws -> String? {
        switch name {
        case "likes-per-day", "superlikes-per-day":
            if value.lowercased() == "off" { return nil }
            guard let count = Int(value), (0...1_000_000).contains(count) else {
                throw StoreError.invalidValue(name: name, value: value, expected: "a whole number from 0 to 1000000, or off")
            }
            return String(count)
        case "rewind":
            guard let rule = RewindRule(rawValue: value.lowercased()) else {
                throw StoreError.invalidValue(name: name, value: value, expected: "any, last, passes or off")
            }
            return rule == .any ? nil : rule.rawValue
        default:
            throw StoreError.invalidValue(
                name: "rule", value: name, expected: names.joined(separator: ", ").replacing(", rewind", with: " or rewind"))
        }
    }

    /// The rules from their `settings` rows (`rule.NAME`, value); rows swipe
    /// does not know are ignored, as a value it cannot read is the default.
    public init(settings: [(name: String, value: String)]) {
        self.init()
        for (name, value) in settings {
            switch name {
            case "rule.likes-per-day": likesPerDay = Int(value)
            case "rule.superlikes-per-day": superlikesPerDay = Int(value)
            case "rule.rewind": rewind = RewindRule(rawValue: value) ?? .any
            default: break
            }
        }
    }

    /// The daily limit for `decision`, nil when none (hate never has one).
    public func dailyLimit(for decision: Decision) -> Int? {
        switch decision {
        case .like: likesPerDay
        case .superlike: superlikesPerDay
        case .hate: nil
        }
    }
}
