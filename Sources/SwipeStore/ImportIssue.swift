/// One rejected row (or header) of an import: where it is and what is wrong.
public struct ImportIssue: Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int
    /// The column at fault, when one is.
    public var column: String?
    /// The offending value, as read.
    public var value: String?
    public var message: String

    public init(file: String, line: Int, column: String? = nil, value: String? = nil, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.value = value
        self.message = message
    }

    public var description: String {
        var text = "\(file):\(line):"
        if let column { text += " column \(column):" }
        if let value { text += " value \"\(Self.cut(value))\":" }
        return text + " " + message
    }

    /// The longest value a message quotes whole, in characters.
    public static let valueWidth = 80

    /// `value` cut to `valueWidth` characters with "…": a message stays one
    /// readable line whatever the file holds (`value` itself stays whole).
    package static func cut(_ value: String) -> String {
        value.count <= valueWidth ? value : String(value.prefix(valueWidth - 1)) + "…"
    }
}

/// An import that changed nothing because rows were invalid.
public struct ImportFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// How many issues are shown at most; the rest are counted.
    public static let shownLimit = 20
    /// The first `shownLimit` issues, in file order.
    public var issues: [ImportIssue]
    /// All issues, shown or not.
    public var total: Int
    /// Whether the file itself is unusable (empty, or a header that names no
    /// usable columns), so that no row could be imported whatever the
    /// caller does; otherwise some rows are valid and skipping the invalid
    /// ones would import them.
    public var isWholeFile: Bool

    public init(issues: [ImportIssue], total: Int, isWholeFile: Bool = false) {
        self.issues = issues
        self.total = total
        self.isWholeFile = isWholeFile
    }

    /// One line per issue shown, then how many more there are.
    public var issueLines: [String] {
        issues.map(\.description) + (total > issues.count ? ["and \(total - issues.count) more"] : [])
    }

    /// "N invalid row(s)".
    public var count: String { "\(total) invalid row\(total == 1 ? "" : "s")" }

    public var description: String {
        (issueLines + [isWholeFile ? "nothing imported" : "nothing imported (\(count))"]).joined(separator: "\n")
    }
}

/// An import stopped by the user (Ctrl-C); its transaction was rolled back.
public struct ImportInterrupted: Error, Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public init(file: String) { self.file = file }
    public var description: String { "interrupted: nothing imported from \(file), the database is unchanged" }
}
