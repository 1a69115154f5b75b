import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// `/`, `/app.js`, `/app.css`, `/chat.js`, `/chat.css`, …: the page, embedded in the binary. Every one of
/// them needs a valid token (from `?token=` or the cookie) and answers 401
/// with a line saying how to get a link otherwise.
extension SwipeServer {
    func addPageRoutes(to router: Router<ServeContext>) {
        router.get("/") { request, _ in
            try await asset(PageAssets.html, type: "text/html; charset=utf-8", request: request)
        }
        router.get("/app.js") { request, _ in
            try await asset(PageAssets.script, type: "text/javascript; charset=utf-8", request: request)
        }
        router.get("/me.js") { request, _ in
            try await asset(PageAssets.meScript, type: "text/javascript; charset=utf-8", request: request)
        }
        router.get("/upload.js") { request, _ in
            try await asset(PageAssets.uploadScript, type: "text/javascript; charset=utf-8", request: request)
        }
        router.get("/account.js") { request, _ in
            try await asset(PageAssets.accountScript, type: "text/javascript; charset=utf-8", request: request)
        }
        router.get("/moderation.js") { request, _ in
            try await asset(PageAssets.moderationScript, type: "text/javascript; charset=utf-8", request: request)
        }
        router.get("/insights.js") { request, _ in
            try await asset(PageAssets.insightsScript, type: "text/javascript; charset=utf-8", request: request)
        }
        router.get("/insights.css") { request, _ in
            try await asset(PageAssets.insightsStyle, type: "text/css; charset=utf-8", request: request)
        }
        router.get("/moderation.css") { request, _ in
            try await asset(PageAssets.moderationStyle, type: "text/css; charset=utf-8", request: request)
        }
        router.get("/account.css") { request, _ in
            try await asset(PageAssets.accountStyle, type: "text/css; charset=utf-8", request: request)
        }
        router.get("/upload.css") { request, _ in
            try await asset(PageAssets.uploadStyle, type: "text/css; charset=utf-8", request: request)
        }
        router.get("/chat.js") { request, _ in
            try await asset(PageAssets.chat, type: "text/javascript; charset=utf-8", request: request)
        }
        router.get("/chat.css") { request, _ in
            try await asset(PageAssets.chatStyle, type: "text/css; charset=utf-8", request: request)
        }
        router.get("/app.css") { request, _ in
            try await asset(PageAssets.style, type: "text/css; charset=utf-8", request: request)
        }
        router.get("/photos.js") { request, _ in
            try await asset(PageAssets.photosScript, type: "text/javascript; charset=utf-8", request: request)
        }
        router.get("/photos.css") { request, _ in
            try await asset(PageAssets.photosStyle, type: "text/css; charset=utf-8", request: request)
        }
        // `/ws` without an upgrade, and every other path: 401 without a
        // token (nothing is told about what exists), else 426 or 404.
        router.get("/ws") { request, _ in
            try await plain(.upgradeRequired, "This address is a WebSocket.\n", request: request)
        }
        // The page's Sign out: every link of this viewer stops working (the
        // cookie could have been copied), their open sockets close (4001)
        // and this browser's cookie is cleared. Same-origin pages only.
        router.group("logout")
            .add(
                middleware: SignInGate(
                    server: self, action: "sign-out",
                    pageOnly: PageOnly(originRequired: true, forbidden: "Sign out from the page itself."))
            )
            .group(context: SignedInContext.self)
            .post { _, context in try await logout(viewer: context.viewer) }
        // For a load balancer or a supervisor: no sign-in, no detail.
        router.get("/healthz") { _, _ in
            try await health()
        }
        router.get("/metrics") { request, context in
            try await metricsPage(request, from: context.remoteAddress)
        }
        router.on("**", method: .get) { request, _ in
            try await plain(.notFound, "Not found.\n", request: request)
        }
    }

    private func logout(viewer: String) async throws -> Response {
        let backend = backend
        try await threadPool.runIfActive { try backend.revokeSignIns(viewer: viewer) }
        logger.info("signed out", metadata: ["viewer": .string(viewer)])
        await checkSignIns()
        var response = Self.plainAnswer(.ok, "Signed out.\n")
        response.setCookie(signInCookie("", seconds: 0))
        return response
    }

    /// Login CSRF: a link (`?token=`) for one viewer opened in a browser
    /// whose cookie signs in another is refused, saying so, rather than
    /// silently switching: a page could otherwise sign its visitor in as
    /// someone else and watch what they do there. Signing out first (or
    /// the cookie having expired) lets the link in.
    private func switchRefusal(_ request: Request, to grant: AccessGrant) async -> Response? {
        guard request.uri.queryParameters["token"] != nil, let cookie = cookieToken(in: request),
            case .success(let current) = await verify(cookie), current.viewer != grant.viewer
        else { return nil }
        logger.info(
            "refused a link for another viewer than the signed-in one", metadata: ["path": .string(request.uri.path)])
        return Self.refusal(.conflict, title: "Signed in as someone else", Self.switchHint, request: request)
    }

    /// A refusal a person reads: a small HTML page to a browser (one that
    /// asks for `text/html`), the same sentence as plain text to anything
    /// else (curl, scripts). The page has a language, a title and a main
    /// landmark, so a screen reader announces it as it does the deck.
    static func refusal(_ status: HTTPResponse.Status, title: String, _ text: String, request: Request)
        -> Response
    {
        var headers = HTTPFields()
        let line = text.hasSuffix("\n") ? text : text + "\n"
        guard request.headers[values: .accept].contains(where: { $0.contains("text/html") }) else {
            headers[.contentType] = "text/plain; charset=utf-8"
            return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: line)))
        }
        headers[.contentType] = "text/html; charset=utf-8"
        let html = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>swipe: \(escapeHTML(title))</title></head>
            <body><main><h1>\(escapeHTML(title))</h1><p>\(escapeHTML(line))</p></main></body></html>

            """
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    private static func escapeHTML(_ text: String) -> String {
        var escaped = ""
        for character in text.trimmingCharacters(in: .whitespacesAndNewlines) {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    static let switchHint =
        "This browser is signed in as someone else. The link was not used: "
        + "sign out on the page (Sign out) and open the link again to use it.\n"

    private func health() async throws -> Response {
        let backend = backend
        let reachable = (try? await threadPool.runIfActive { backend.isReachable() }) ?? false
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; charset=utf-8"
        return Response(
            status: reachable ? .ok : .serviceUnavailable, headers: headers,
            body: .init(byteBuffer: ByteBuffer(string: reachable ? "ok\n" : "database unreachable\n")))
    }

    /// Prometheus's text format, to a scraper on this machine only: the
    /// counts hold no person's data, but how busy a dating service is is
    /// nobody else's business. Behind a proxy, do not forward `/metrics`
    /// (Documentation/Serve.md).
    private func metricsPage(_ request: Request, from remote: SocketAddress?) async throws -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; charset=utf-8"
        guard Self.isLoopback(remote), request.headers[.init("X-Forwarded-For")!] == nil else {
            return Response(
                status: .forbidden, headers: headers,
                body: .init(byteBuffer: ByteBuffer(string: "Metrics are served to this machine only.\n")))
        }
        metrics.socketsOpen(hub.count)
        metrics.commitsSoFar(backend.commitBatches)
        headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
        return Response(
            status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: metrics.exposition())))
    }

    static func isLoopback(_ address: SocketAddress?) -> Bool {
        switch address {
        case .v4(let v4)?: v4.address.sin_addr.s_addr.bigEndian >> 24 == 127
        case .v6?: address?.ipAddress == "::1"
        case .unixDomainSocket?: true
        default: false
        }
    }

    private func plain(_ status: HTTPResponse.Status, _ text: String, request: Request) async throws -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; charset=utf-8"
        if case .failure(let reason) = await authenticate(request) {
            logger.info("refused request: \(reason)", metadata: ["path": .string(request.uri.path)])
            return Self.refusal(.unauthorized, title: "Sign-in needed", Self.signInHint, request: request)
        }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// `bytes` for a signed-in request, with the security headers; a token
    /// that came in the query is moved into an HttpOnly cookie for the
    /// socket and for later visits.
    private func asset(_ bytes: [UInt8], type: String, request: Request) async throws -> Response {
        var headers = HTTPFields()
        switch await authenticate(request) {
        case .failure(.suspended(let reason, let until)):
            // A link made after the ban (`swipe link`): the person is told why.
            logger.info("refused page: the viewer is suspended", metadata: ["path": .string(request.uri.path)])
            return Self.refusal(
                .forbidden, title: "Your account is suspended",
                "Your account is suspended " + (until.map { "until \($0)" } ?? "for good") + ": \(reason)",
                request: request)
        case .failure(let reason):
            logger.info("refused page: \(reason)", metadata: ["path": .string(request.uri.path)])
            return Self.refusal(.unauthorized, title: "Sign-in needed", Self.signInHint, request: request)
        case .success(let grant):
            if let refusal = await switchRefusal(request, to: grant) { return refusal }
            headers[.contentType] = type
            var response = Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
            if let token = request.uri.queryParameters["token"], !token.isEmpty {
                let seconds = max(0, Int(grant.expiry.timeIntervalSinceNow))
                response.setCookie(signInCookie(String(token), seconds: seconds))
            }
            return response
        }
    }

    /// Profile text reaches the page as text only (the script uses
    /// textContent); the policy also forbids inline script, other origins'
    /// scripts and framing, and keeps links' tokens out of Referer headers.
    /// Images come from this server only: a photo on another host would be
    /// a tracking pixel, telling it who was shown whom, and when.
    static let contentSecurityPolicy = [
        "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self'",
        "connect-src 'self'", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
    ].joined(separator: "; ")

    /// Set on every answer by `SecurityHeadersMiddleware`, and on a refused
    /// socket upgrade (`UpgradeRefusal`), which no router answers.
    static var securityHeaders: HTTPFields {
        var headers = HTTPFields()
        headers[.contentSecurityPolicy] = contentSecurityPolicy
        headers[.xContentTypeOptions] = "nosniff"
        headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        headers[.cacheControl] = "no-store"
        return headers
    }
}

/// The page's files, compiled into the binary (Package.swift `embedInCode`).
enum PageAssets {
    static let html = PackageResources.index_html
    static let script = PackageResources.app_js
    /// The "Me" view (Documentation/PersonalData.md).
    static let meScript = PackageResources.me_js
    /// The Me view's "Your data": download, erase (Documentation/PersonalData.md).
    static let accountScript = PackageResources.account_js
    static let accountStyle = PackageResources.account_css
    static let moderationScript = PackageResources.moderation_js
    static let moderationStyle = PackageResources.moderation_css
    /// Insights in Me and the moderators' market view (Documentation/Insights.md).
    static let insightsScript = PackageResources.insights_js
    static let insightsStyle = PackageResources.insights_css
    static let style = PackageResources.app_css
    /// The inbox and conversations (Page/chat.js).
    static let chat = PackageResources.chat_js
    static let chatStyle = PackageResources.chat_css
    static let photosScript = PackageResources.photos_js
    static let photosStyle = PackageResources.photos_css
    /// The Me view's photos: upload, remove, reorder (Page/upload.js).
    static let uploadScript = PackageResources.upload_js
    static let uploadStyle = PackageResources.upload_css
}
