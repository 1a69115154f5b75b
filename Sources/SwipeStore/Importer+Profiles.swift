import Foundation
import SwipeCore

extension Importer {
    /// Imports a profiles CSV (DESIGN.md §5): `id`, `name`, `age` (18–120)
    /// required; `gender`, `city`, `bio`, `photos`, `interests` optional, the
    /// last two `;`-separated. Profiles with a known id are updated in place.
    public func importProfiles(path: String) throws -> ImportSummary {
        var failed = false
        return try run(
            path: path, required: ["id", "name", "age"],
            optional: ["gender", "city", "bio", "photos", "interests"]
        ) { fields in
            do {
                let profile = try Self.profile(from: fields)
                if failed { return .inserted }
                return try store.upsert(profile) == .inserted ? .inserted : .updated
            } catch {
                if !skipInvalid { failed = true }
                throw error
            }
        }
    }

    static func profile(from fields: Fields) throws -> Profile {
        let id = fields["id"] ?? ""
        guard !id.isEmpty else { throw RowIssue(column: "id", value: id, message: "id is required") }
        let name = fields["name"] ?? ""
        guard !name.isEmpty else { throw RowIssue(column: "name", value: name, message: "name is required") }
        let ageText = fields["age"] ?? ""
        guard let age = Int(ageText), (18...120).contains(age) else {
            throw RowIssue(column: "age", value: ageText, message: "age must be a whole number from 18 to 120")
        }
        func optional(_ text: String?) -> String? { text?.isEmpty == false ? text : nil }
        func list(_ text: String?) -> [String] {
            (text ?? "").split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        let bio = fields.raw("bio").flatMap { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : $0 }
        return Profile(
            id: id, name: name, age: age, gender: optional(fields["gender"]), city: optional(fields["city"]),
            bio: bio, photos: list(fields["photos"]), interests: list(fields["interests"]))
    }
}

