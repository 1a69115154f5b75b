import SwipeStore

extension PersonalExport {
    /// The export document (Documentation/PersonalData.md, "Export"): one
    /// JSON object, `format` and `version` first, then `viewer`,
    /// `exported_at`, `profile` (an object), each other section (an array of
    /// objects; `rank_stats` an object or null), and `withheld`: each
    /// stored column naming the person that is left out, and why. Numbers
    /// are written exactly as stored (coordinates are not rounded here:
    /// it is the person's own data). Pretty-printed, two-space indents.
    public var json: String { render(pretty: true) }

    /// The same document on one line (no newline), for JSON mode and the
    /// socket (`me export`), which answer one line per command: the same
    /// members, values and spelling as `json`, only the layout differs.
    public var compactJSON: String { render(pretty: false) }

    package func render(pretty: Bool) -> String {
        // The one writer of the document; `pretty` only picks the white space.
        let open = pretty ? "{\n" : "{"
        let indent = pretty ? "  " : ""
        let rowIndent = pretty ? "    " : ""
        let between = pretty ? ",\n" : ", "
        var out = open
        func member(_ name: String, _ value: String, last: Bool = false) {
            out += indent + JSONText.quoted(name) + ": " + value + (last ? (pretty ? "\n" : "") : between)
        }
        func list(_ items: [String]) -> String {
            items.isEmpty
                ? "[]"
                : "[" + (pretty ? "\n" : "") + items.map { rowIndent + $0 }.joined(separator: between)
                    + (pretty ? "\n  ]" : "]")
        }
        member("format", JSONText.quoted("swipe-personal-data"))
        member("version", String(Self.version))
        member("viewer", JSONText.quoted(viewer))
        member("exported_at", JSONText.quoted(exportedAt))
        for section in sections {
            switch section.name {
            case "profile", "rank_stats", "rank_fit":
                member(section.name, section.rows.first.map { Self.object($0, indent: indent) } ?? "null")
            default:
                member(section.name, list(section.rows.map { Self.object($0, indent: rowIndent) }))
            }
        }
        let withheld = PersonalData.coverage.compactMap { column, exported -> String? in
            guard case .withheld(let why) = exported else { return nil }
            return "{\"column\": " + JSONText.quoted(column.description) + ", \"why\": " + JSONText.quoted(why) + "}"
        }
        // Always open on its own line, as the first version wrote it.
        let rows = withheld.map { rowIndent + $0 }.joined(separator: between)
        member("withheld", "[" + (pretty ? "\n" + rows + "\n  ]" : rows + "]"), last: true)
        return out + (pretty ? "}\n" : "}")
    }

    /// One row as an object on one line.
    package static func object(_ row: [(String, Value)], indent: String) -> String {
        "{" + row.map { JSONText.quoted($0.0) + ": " + literal($0.1) }.joined(separator: ", ") + "}"
    }

    package static func literal(_ value: Value) -> String {
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
