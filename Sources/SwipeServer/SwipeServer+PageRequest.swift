import HTTPTypes
import Hummingbird
import Logging

/// Who may use a route, said once per group of routes instead of checked
/// inside each handler: a `RouterGroup` carries a `SignInGate`, and its
/// routes are handed a `SignedInContext` holding the signed-in viewer. A
/// handler under the gate cannot run for nobody; a handler outside it has
/// no viewer to read.
///
/// ```swift
/// router.group("photos").add(middleware: SignInGate(server: self, action: "photo"))
///     .group(context: SignedInContext.self)
///     .get(":id") { request, context in … context.viewer … }
/// ```
extension SwipeServer {
    /// The routes only swipe's own page may use (an upload, the export,
    /// signing out): the request must come from the page, then from
    /// someone signed in.
    ///
    /// From the page: every `Origin` it carries is this server's
    /// (`originAllowed`), and it carries one when `originRequired` (browsers
    /// send it on every POST, so a POST without one came from something
    /// else); a GET, which a browser may send without `Origin`, is refused
    /// when `Sec-Fetch-Site` says another site led to it.
    struct PageOnly: Sendable {
        var originRequired: Bool
        /// The line a 403 says (where to do it instead).
        var forbidden: String
    }

    /// What a gate decided: the signed-in viewer, or the answer that refuses.
    enum GateDecision {
        case viewer(String)
        case refused(Response)
    }

    /// Whether `request` may go on to a gated route, for whom; a refusal is
    /// logged as "refused `action`: …" with the path, never the token.
    /// - Parameter loggedPath: what the log says in place of the request's
    ///   path (a photo's id is not for the log).
    func gate(_ request: Request, action: String, pageOnly: PageOnly?, loggedPath: String?) async -> GateDecision {
        let path: Logger.MetadataValue = .string(loggedPath ?? request.uri.path)
        if let pageOnly {
            let origins = request.headers[values: .origin]
            let site = request.headers[HTTPField.Name("Sec-Fetch-Site")!]?.lowercased()
            guard !(pageOnly.originRequired && origins.isEmpty),
                origins.allSatisfy({ originAllowed($0, request: request) }),
                site != "cross-site", site != "same-site"
            else {
                logger.info("refused \(action): not from the page", metadata: ["path": path])
                return .refused(Self.plainAnswer(.forbidden, pageOnly.forbidden + "\n"))
            }
        }
        guard case .success(let grant) = await authenticate(request) else {
            logger.info("refused \(action): not signed in", metadata: ["path": path])
            return .refused(Self.plainAnswer(.unauthorized, Self.signInHint + "\n"))
        }
        return .viewer(grant.viewer)
    }
}

/// The middleware of a group of signed-in routes: refuses (401, or 403 for
/// a page-only route another site led to) or hands the route the viewer in
/// `ServeContext.viewer`, which `SignedInContext` then requires.
struct SignInGate: RouterMiddleware {
    typealias Context = ServeContext
    let server: SwipeServer
    /// The refusal's name in the log ("refused photo: not signed in").
    let action: String
    /// Whether only the page may use the group's routes, and what a refusal says.
    var pageOnly: SwipeServer.PageOnly? = nil
    /// The path a refusal logs, when the request's is not for the log.
    var loggedPath: String? = nil

    func handle(
        _ request: Request, context: ServeContext, next: (Request, ServeContext) async throws -> Response
    ) async throws -> Response {
        switch await server.gate(request, action: action, pageOnly: pageOnly, loggedPath: loggedPath) {
        case .refused(let answer):
            return answer
        case .viewer(let viewer):
            var context = context
            context.viewer = viewer
            return try await next(request, context)
        }
    }
}

/// The context of a route under a `SignInGate`: the viewer it acts for.
/// Made from the gate's `ServeContext`; a route mounted without the gate
/// has none, and is a programming error answered 500, never a route that
/// runs for nobody.
struct SignedInContext: ChildRequestContext {
    var coreContext: CoreRequestContextStorage
    let viewer: String

    init(context: ServeContext) throws {
        guard let viewer = context.viewer else { throw HTTPError(.internalServerError) }
        coreContext = context.coreContext
        self.viewer = viewer
    }
}
