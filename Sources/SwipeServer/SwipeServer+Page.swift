import Foundation
import HTTPTypes
import Hummingbird

/// `/`, `/app.js`, `/app.css`: the page, embedded in the binary. Every one of
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
        router.get("/app.css") { request, _ in
            try await asset(PageAssets.style, type: "text/css; charset=utf-8", request: request)
        }
        // `/ws` without an upgrade, and every other path: 401 without a
        // token (nothing is told about what exists), else 426 or 404.
        router.get("/ws") { request, _ in
            try await plain(.upgradeRequired, "This address is a WebSocket.\n", request: request)
        }
        router.on("**", method: .get) { request, _ in
            try await plain(.notFound, "Not found.\n", request: request)
        }
    }

    private func plain(_ status: HTTPResponse.Status, _ text: String, request: Request) async throws -> Response {
        var headers = Self.securityHeaders
        headers[.contentType] = "text/plain; charset=utf-8"
        if case .failure(let reason) = await authenticate(request) {
            logger.info("refused request: \(reason)", metadata: ["path": .string(request.uri.path)])
            return Response(status: .unauthorized, headers: headers,
                            body: .init(byteBuffer: ByteBuffer(string: Self.signInHint + "\n")))
        }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// `bytes` for a signed-in request, with the security headers; a token
    /// that came in the query is moved into an HttpOnly cookie for the
    /// socket and for later visits.
    private func asset(_ bytes: [UInt8], type: String, request: Request) async throws -> Response {
        var headers = Self.securityHeaders
        switch await authenticate(request) {
        case .failure(let reason):
            logger.info("refused page: \(reason)", metadata: ["path": .string(request.uri.path)])
            headers[.contentType] = "text/plain; charset=utf-8"
            return Response(status: .unauthorized, headers: headers,
                            body: .init(byteBuffer: ByteBuffer(string: Self.signInHint + "\n")))
        case .success(let grant):
            headers[.contentType] = type
            var response = Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
            if let token = request.uri.queryParameters["token"], !token.isEmpty {
                let seconds = max(0, Int(grant.expiry.timeIntervalSinceNow))
                response.setCookie(Cookie(name: Self.cookieName, value: String(token), maxAge: seconds, path: "/",
                                          httpOnly: true, sameSite: .strict))
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
    static let style = PackageResources.app_css
}
