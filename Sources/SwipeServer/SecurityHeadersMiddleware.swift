import HTTPTypes
import Hummingbird

/// Every HTTP answer of the router carries the page's security headers
/// (`SwipeServer.securityHeaders`: the content security policy, `nosniff`,
/// no Referer, `no-store`), set here once instead of in each handler. A
/// handler that sets one of them itself keeps its own value (a photo's
/// `Cache-Control: private`); an error a handler throws is answered with
/// them too.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        do {
            return Self.secured(try await next(request, context))
        } catch let error as any HTTPResponseError {
            return Self.secured(try error.response(from: request, context: context))
        }
    }

    static func secured(_ response: Response) -> Response {
        var response = response
        for field in SwipeServer.securityHeaders where response.headers[field.name] == nil {
            response.headers[field.name] = field.value
        }
        return response
    }
}
