extension String {
    /// The string without leading and trailing blanks: exactly Foundation's
    /// `trimmingCharacters(in: .whitespaces)` (category Zs and tab) or, with
    /// `newlines`, `.whitespacesAndNewlines` (Z*, U+000A–U+000D, U+0085) —
    /// but without its NSString round trip, which cost the importer more than
    /// half its instructions; an already trimmed string is returned as is.
    package func trimmed(newlines: Bool = false) -> String {
        func isBlank(_ scalar: Unicode.Scalar) -> Bool {
            if scalar.value < 0x80 {
                return scalar == " " || scalar == "\t" || (newlines && (0x0A...0x0D).contains(scalar.value))
            }
            if scalar.value == 0x85 { return newlines }
            switch scalar.properties.generalCategory {
            case .spaceSeparator: return true
            case .lineSeparator, .paragraphSeparator: return newlines
            default: return false
            }
        }
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !isBlank($0) }),
            let last = scalars.lastIndex(where: { !isBlank($0) })
        else { return "" }
        if first == scalars.startIndex && scalars.index(after: last) == scalars.endIndex { return self }
        return String(scalars[first...last])
    }
}
