import SwipeStore

extension PersonalExport {
    /// The export document (Documentation/PersonalData.md, "Export"): one
    /// JSON object, `format` and `version` first, then `viewer`,
    /// `exported_at`, `profile` (an object), each other section (an array of
    /// objects; `rank_stats` an object or null), and `withheld`: each
    /// stored column naming the person that is left out, and why. Numbers
    /// are written exactly as stored (coordinates are not rounded here:
    /// it is the person's own data). Pretty-printed, two-space indents.
    public var json: String {
        var out = "{\n"
        func member(_ name: String, _ value: String, last: Bool = false) {
            out += "  " + JSONText.quoted(name) + ": " + value + (last ? "\n" : ",\n")
        }
        member("format", JSONText.quoted("swipe-personal-data"))
        member("version", String(Self.version))
        member("viewer", JSONText.quoted(viewer))
        member("exported_at", JSONText.quoted(exportedAt))
        for section in sections {
            switch section.name {
            case "profile", "rank_stats":
                member(section.name, section.rows.first.map { Self.object($0, indent: "  ") } ?? "null")
            default:
                member(
                    section.name,
                    section.rows.isEmpty
                        ? "[]"
                        : "[\n" + section.rows.map { "    " + Self.object($0, indent: "    ") }.joined(separator: ",\n")
                            + "\n  ]")
            }
        }
        let withheld = PersonalData.coverage.compactMap { column, exported -> String? in
            guard case .withheld(let why) = exported else { return nil }
            return "    {\"column\": " + JSONText.quoted(column.description) + ", \"why\": " + JSONText.quoted(why)
                + "}"
        }
        member("withheld", "[\n" + withheld.joined(separator: ",\n") + "\n  ]", last: true)
        return out + "}\n"
    }

    /// One row as an object on one line.
    static func object(_ row: [(String, Value)], indent: String) -> String {
        "{" + row.map { JSONText.quoted($0.0) + ": " + literal($0.1) }.joined(separator: ", ") + "}"
    }

    static func literal(_ value: Value) -> String {
        switch value {
        case .null: "null"
        case .int(let number): String(number)
        // Swift's shortest spelling that reads back as the same Double.
        case .real(let number): number.isFinite ? "\(number)" : "null"
        case .text(let text): JSONText.quoted(text)
        case .strings(let items): "[" + items.map(JSONText.quoted).joined(separator: ", ") + "]"
        }
    }
}
