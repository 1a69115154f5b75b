import HTTPTypes
import Hummingbird
import Logging

/// The gate in front of the routes only swipe's own page may use (an upload,
/// the export, signing out), written once: the request must come from the
/// page, then from someone signed in.
extension SwipeServer {
    /// What the gate decided: the signed-in viewer, or the answer that refuses.
    enum PageRequest {
        case viewer(String)
        case refused(Response)
    }

    /// Whether `request` may act for its signed-in viewer.
    ///
    /// From the page: every `Origin` it carries is this server's
    /// (`originAllowed`), and it carries one when `originRequired` (browsers
    /// send it on every POST, so a POST without one came from something
    /// else); a GET, which a browser may send without `Origin`, is refused
    /// when `Sec-Fetch-Site` says another site led to it. Each refusal is
    /// logged as "refused `action`: …" with the path, never the token.
    ///
    /// - Parameter forbidden: the line a 403 says (where to do it instead).
    func pageRequest(
        _ request: Request, action: String, originRequired: Bool, forbidden: String
    ) async -> PageRequest {
        let origins = request.headers[values: .origin]
        let site = request.headers[HTTPField.Name("Sec-Fetch-Site")!]?.lowercased()
        let path: Logger.MetadataValue = .string(request.uri.path)
        guard !(originRequired && origins.isEmpty), origins.allSatisfy({ originAllowed($0, request: request) }),
            site != "cross-site", site != "same-site"
        else {
            logger.info("refused \(action): not from the page", metadata: ["path": path])
            return .refused(Self.plainAnswer(.forbidden, forbidden + "\n"))
        }
        guard case .success(let grant) = await authenticate(request) else {
            logger.info("refused \(action): not signed in", metadata: ["path": path])
            return .refused(Self.plainAnswer(.unauthorized, Self.signInHint + "\n"))
        }
        return .viewer(grant.viewer)
    }
}
