import Foundation

/// Cross-site WebSocket hijacking: a page on another site can open a socket
/// to this server, and the browser attaches the viewer's cookie. Browsers
/// always send `Origin` on a WebSocket upgrade, and a page's origin is always
/// `http(s)://host[:port]` (or `null`), so an upgrade whose origin names
/// another host or port than the one the request was sent to is refused, and
/// so is `null`. A request without `Origin`, or with a `ws://` one (which
/// swift-websocket's client sends), comes from a program, not from a page a
/// viewer visited; it still needs its token.
public enum OriginCheck {
    /// Whether an upgrade with `origin` may proceed for a request sent to `host`
    /// (the Host header: `name[:port]`).
    public static func allows(origin: String?, host: String?) -> Bool {
        guard let origin else { return true }
        if let scheme = origin.range(of: "://").map({ origin[..<$0.lowerBound].lowercased() }),
            scheme == "ws" || scheme == "wss"
        {
            return true
        }
        guard let host, let parsed = parse(origin) else { return false }
        let (requestHost, requestPort) = split(authority: host, defaultPort: parsed.defaultPort)
        return parsed.host.lowercased() == requestHost.lowercased() && parsed.port == requestPort
    }

    /// Behind a proxy (`--public-url`): `origin` is the public URL's origin
    /// (scheme, host and port alike), whatever Host the proxy passed on.
    public static func allows(origin: String, publicURL: URL) -> Bool {
        guard let scheme = publicURL.scheme?.lowercased(), let host = publicURL.host,
            let parsed = parse(origin), origin.lowercased().hasPrefix(scheme + "://")
        else { return false }
        let port = publicURL.port ?? (scheme == "https" ? 443 : 80)
        return parsed.host.lowercased().trimmingCharacters(in: ["[", "]"])
            == host.lowercased()
            .trimmingCharacters(in: ["[", "]"]) && parsed.port == port
    }

    /// `scheme://host[:port]` as (host, port, the scheme's default port); nil
    /// for anything else (`null`, a path, userinfo, an unknown scheme).
    private static func parse(_ origin: String) -> (host: String, port: Int, defaultPort: Int)? {
        let defaults = ["http": 80, "https": 443]
        guard let schemeEnd = origin.range(of: "://") else { return nil }
        let scheme = origin[..<schemeEnd.lowerBound].lowercased()
        guard let defaultPort = defaults[scheme] else { return nil }
        let authority = String(origin[schemeEnd.upperBound...])
        guard !authority.isEmpty, !authority.contains("/"), !authority.contains("@") else { return nil }
        let (host, port) = split(authority: authority, defaultPort: defaultPort)
        return (host, port, defaultPort)
    }

    /// `host[:port]`, `[v6]:port` included; a missing or unreadable port is
    /// `defaultPort` or -1 (which matches nothing real).
    private static func split(authority: String, defaultPort: Int) -> (String, Int) {
        var host = Substring(authority)
        var portText: Substring?
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
            let rest = host[host.index(after: close)...]
            portText = rest.hasPrefix(":") ? rest.dropFirst() : nil
            host = host[...close]
        } else if let colon = host.lastIndex(of: ":") {
            portText = host[host.index(after: colon)...]
            host = host[..<colon]
        }
        guard let portText else { return (String(host), defaultPort) }
        return (String(host), Int(portText) ?? -1)
    }
}
