/// Recognising PostgreSQL URIs and hiding the passwords inside them.
///
/// libpq accepts a password in the URI (`postgres://user:secret@host/db` or
/// `?password=secret`). Users should prefer `PGPASSWORD` or `~/.pgpass`, but
/// when they do not, nothing swipe prints may show it: every place that could
/// show a URI shows `redacted(_:)` instead, and errors from a connection have
/// the password's text scrubbed out of libpq's own messages too.
public enum PostgresURI {
    /// What replaces a password.
    public static let mask = "***"

    /// Whether `text` is a `postgres://` or `postgresql://` URI (any case).
    public static func isPostgres(_ text: String) -> Bool {
        scheme(of: text) != nil
    }

    /// `uri` with its database (the path) replaced by `database`, its
    /// query (`?sslmode=…`) kept: for tools and tests that make databases.
    public static func replacingDatabase(in uri: String, with database: String) -> String {
        guard let schemeEnd = uri.range(of: "://")?.upperBound else { return uri }
        let rest = uri[schemeEnd...]
        let pathStart = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        let query = rest[pathStart...].firstIndex(of: "?").map { String(rest[$0...]) } ?? ""
        return String(uri[..<pathStart]) + "/" + database + query
    }

    /// `text` with every password replaced by `***`: the one in the user
    /// information (`user:secret@`, in a URI of any scheme), any `password=`
    /// query parameter, and a `password=` keyword of a libpq key/value string.
    /// Anything else is returned unchanged.
    public static func redacted(_ text: String) -> String {
        guard let parts = split(text) else { return redactedKeywords(text) }
        var out = parts.scheme
        if let user = parts.userInfo {
            if let colon = user.firstIndex(of: ":") {
                out += user[..<colon] + ":" + mask + "@"
            } else {
                out += user + "@"
            }
        }
        out += parts.hosts + parts.path
        if let query = parts.query {
            out +=
                "?"
                + query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
                    guard let equals = pair.firstIndex(of: "="),
                        percentDecoded(String(pair[..<equals])).lowercased() == "password"
                    else { return String(pair) }
                    return pair[..<equals] + "=" + mask
                }.joined(separator: "&")
        }
        if let fragment = parts.fragment { out += "#" + fragment }
        return out
    }

    /// The password texts in `text` (as written and percent-decoded) of four
    /// characters or more, so that messages can be scrubbed of them.
    static func secrets(in text: String) -> [String] {
        guard let parts = split(text) else { return [] }
        var found: [String] = []
        if let user = parts.userInfo, let colon = user.firstIndex(of: ":") {
            found.append(String(user[user.index(after: colon)...]))
        }
        for pair in (parts.query ?? "").split(separator: "&") {
            guard let equals = pair.firstIndex(of: "="),
                percentDecoded(String(pair[..<equals])).lowercased() == "password"
            else { continue }
            found.append(String(pair[pair.index(after: equals)...]))
        }
        // Scrubbing a one-letter password would garble every message; libpq
        // never echoes a password, so this guards long ones only.
        let all = found + found.map(percentDecoded)
        return Array(Set(all.filter { $0.count >= 4 })).sorted { $0.count > $1.count }
    }

    /// `message` with every secret of `uri` replaced by `***`.
    static func scrub(_ message: String, secrets: [String]) -> String {
        var message = message
        for secret in secrets { message = message.replacingAll(secret, with: mask) }
        return message
    }

    private struct Parts {
        var scheme: String
        var userInfo: String?
        var hosts: String
        var path: String
        var query: String?
        var fragment: String?
    }

    private static func scheme(of text: String) -> String? {
        for scheme in ["postgresql://", "postgres://"] where text.lowercased().hasPrefix(scheme) {
            return String(text.prefix(scheme.count))
        }
        return nil
    }

    /// `scheme://` of any URI (RFC 3986: a letter, then letters, digits, + - .).
    private static func anyScheme(of text: String) -> String? {
        guard let end = Substring(text).range(of: "://")?.lowerBound, end > text.startIndex else { return nil }
        let name = text[..<end]
        guard name.first!.isASCII && name.first!.isLetter,
            name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return nil }
        return String(text[..<text.index(end, offsetBy: 3)])
    }

    /// libpq's `key=value` form: the value of every `password` keyword
    /// (bare, or single-quoted with backslash escapes) becomes `***`.
    private static func redactedKeywords(_ text: String) -> String {
        let chars = Array(text)
        let keyword = Array("password")
        var out = ""
        var i = 0
        while i < chars.count {
            let isKeyword =
                i + keyword.count <= chars.count
                && zip(chars[i..<(i + keyword.count)], keyword).allSatisfy { $0.lowercased() == String($1) }
            guard isKeyword else {
                out.append(chars[i])
                i += 1
                continue
            }
            var j = i + keyword.count
            while j < chars.count, chars[j] == " " { j += 1 }
            guard j < chars.count, chars[j] == "=" else {
                out += String(chars[i..<j])
                i = j
                continue
            }
            j += 1
            while j < chars.count, chars[j] == " " { j += 1 }
            out += String(chars[i..<j]) + mask
            if j < chars.count, chars[j] == "'" {
                j += 1
                var escaped = false
                while j < chars.count, escaped || chars[j] != "'" {
                    escaped = chars[j] == "\\" && !escaped
                    j += 1
                }
                j = min(j + 1, chars.count)
            } else {
                while j < chars.count, chars[j] != " " { j += 1 }
            }
            i = j
        }
        return out
    }

    private static func split(_ text: String) -> Parts? {
        guard let scheme = anyScheme(of: text) else { return nil }
        var rest = Substring(text.dropFirst(scheme.count))
        var fragment: String?
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        var query: String?
        if let mark = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: mark)...])
            rest = rest[..<mark]
        }
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        let path = String(rest[authorityEnd...])
        // The last @ ends the user information: a password may hold a raw @.
        guard let at = authority.lastIndex(of: "@") else {
            return Parts(
                scheme: scheme, userInfo: nil, hosts: String(authority), path: path, query: query, fragment: fragment)
        }
        return Parts(
            scheme: scheme, userInfo: String(authority[..<at]), hosts: String(authority[authority.index(after: at)...]),
            path: path, query: query, fragment: fragment)
    }

    static func percentDecoded(_ text: String) -> String {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
                let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension String {
    /// Every occurrence of `target` replaced, without Foundation.
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var out = ""
        var rest = Substring(self)
        while let range = rest.range(of: target) {
            out += rest[..<range.lowerBound] + replacement
            rest = rest[range.upperBound...]
        }
        return out + rest
    }
}

extension Substring {
    /// The first range of `target` (plain characters, no Foundation).
    func range(of target: String) -> Range<Index>? {
        guard let first = target.first else { return nil }
        var index = startIndex
        while let found = self[index...].firstIndex(of: first) {
            if self[found...].hasPrefix(target) {
                return found..<self.index(found, offsetBy: target.count)
            }
            index = self.index(after: found)
        }
        return nil
    }
}
