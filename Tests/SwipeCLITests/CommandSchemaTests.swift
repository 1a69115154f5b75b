import Foundation
import Testing

@testable import SwipeCLI
@testable import SwipeSession

/// The command objects' JSON Schema (Documentation/command.schema.json) is
/// the contract a client reads; these hold the code to it: every `cmd` the
/// REPL takes is in the schema with the same arguments, and the objects the
/// tests send are valid against it (a small validator of the schema's own
/// subset: `oneOf` by `cmd`, `required`, `additionalProperties: false`, types).
@Suite struct CommandSchemaTests {
    static let schemaPath =
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Documentation/command.schema.json").path

    static func branches() throws -> [String: [String: Any]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: schemaPath))
        let schema = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let oneOf = try #require(schema["oneOf"] as? [[String: Any]])
        var byCmd: [String: [String: Any]] = [:]
        for branch in oneOf {
            let cmd = ((branch["properties"] as? [String: Any])?["cmd"] as? [String: Any])?["const"] as? String
            byCmd[try #require(cmd)] = branch
        }
        return byCmd
    }

    /// Whether `object` is valid against the branch its `cmd` names.
    static func isValid(_ object: [String: Any], _ branches: [String: [String: Any]]) -> Bool {
        guard let cmd = object["cmd"] as? String, let branch = branches[cmd],
            let properties = branch["properties"] as? [String: [String: Any]],
            let required = branch["required"] as? [String]
        else { return false }
        guard required.allSatisfy({ object[$0] != nil }), object.keys.allSatisfy({ properties[$0] != nil }) else {
            return false
        }
        for (key, value) in object {
            switch properties[key]?["type"] as? String {
            case "string"?: if !(value is String) { return false }
            case "number"?: if !(value is NSNumber) || value is String { return false }
            default: break
            }
        }
        return true
    }

    @Test func everyCommandIsInTheSchemaWithItsArguments() throws {
        let branches = try Self.branches()
        #expect(Set(branches.keys) == Set(ReplCommandObject.forms.map(\.cmd)))
        for (cmd, arguments) in ReplCommandObject.forms {
            let words = arguments.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            let branch = try #require(branches[cmd])
            let properties = Set((branch["properties"] as? [String: Any] ?? [:]).keys)
            #expect(
                properties == Set(["cmd", "tag"] + words.map { $0.replacingOccurrences(of: "?", with: "") }), "\(cmd)")
            #expect(
                Set(branch["required"] as? [String] ?? []) == Set(["cmd"] + words.filter { !$0.hasSuffix("?") }),
                "\(cmd)")
        }
    }

    @Test func theObjectsTheTestsSendAreValidAndTheRefusedOnesAreNot() throws {
        let branches = try Self.branches()
        let valid: [[String: Any]] = [
            ["cmd": "say", "to": "p-2", "text": "two\nlines", "tag": 3], ["cmd": "drag", "dx": 60, "dy": -10],
            ["cmd": "release"], ["cmd": "likes"], ["cmd": "open", "id": "c-3", "tag": [1]], ["cmd": "back"],
            ["cmd": "prefs", "field": "age", "value": "25-35"], ["cmd": "me_set", "field": "bio", "value": "x"],
            ["cmd": "say", "to": "bob", "text": "t", "client_id": "k1", "tag": "t1"],
        ]
        for object in valid { #expect(Self.isValid(object, branches), "\(object)") }
        let invalid: [[String: Any]] = [
            ["cmd": "fly"], ["cmd": "say", "to": "p-2"], ["to": "p-2"],
            ["cmd": "say", "to": "p", "text": "x", "color": "red"],
            ["cmd": "drag", "dx": "a", "dy": 0],
        ]
        for object in invalid { #expect(!Self.isValid(object, branches), "\(object)") }
    }
}
