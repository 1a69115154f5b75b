import SwipeStore

/// SQLite's spelling of SwipeStore's SQL (`SQLDialect.sqlite`).
enum SQLiteDialect {
    /// `sql` with each `$N` placeholder written `?N`, SQLite's numbered form
    /// (outside quoted text and comments): the rules write their SQL once,
    /// with PostgreSQL's `$N`, and a statement is rewritten once, when it is
    /// prepared and cached. SQL without a `$` comes back as it is.
    static func placeholders(_ sql: String) -> String {
        guard sql.utf8.contains(UInt8(ascii: "$")) else { return sql }
        var out: [UInt8] = []
        out.reserveCapacity(sql.utf8.count)
        var quote: UInt8?
        var previous: UInt8 = 0
        var comment = false
        let bytes = Array(sql.utf8)
        for (index, byte) in bytes.enumerated() {
            var emitted = byte
            if comment {
                if byte == UInt8(ascii: "\n") { comment = false }
            } else if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
                quote = byte
            } else if byte == UInt8(ascii: "-") && previous == UInt8(ascii: "-") {
                comment = true
            } else if byte == UInt8(ascii: "$"), index + 1 < bytes.count,
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index + 1])
            {
                emitted = UInt8(ascii: "?")
            }
            out.append(emitted)
            previous = byte
        }
        return String(decoding: out, as: UTF8.self)
    }
}
