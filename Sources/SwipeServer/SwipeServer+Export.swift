import Foundation
import HTTPTypes
import Hummingbird
import SwipeSession
import SwipeStore

/// `GET /me/export`: the page's "Download my data" (Documentation/PersonalData.md,
/// "Export"). The answer is the document `swipe export --as V` writes for the
/// signed-in viewer V, read by the same rule (`ViewerScope.exportPersonalData`)
/// and written by the same writer (`PersonalExport.json`), as a file to save:
/// `Content-Disposition: attachment`, `Cache-Control: no-store` (no cache
/// keeps someone's data), `nosniff`.
///
/// It exports only whoever signed in: it takes no id. Without a valid
/// sign-in, 401. A request another site makes is refused (403): one whose
/// `Origin` is not this server's, or that the browser marks as made by
/// another site (`Sec-Fetch-Site`), so that no other page can make the
/// browser fetch the document (the sign-in cookie is also `SameSite=Strict`).
/// A link followed from the page itself (`<a download>`) sends no Origin,
/// and is answered.
extension SwipeServer {
    func addExportRoutes(to router: Router<ServeContext>) {
        let pageOnly = PageOnly(originRequired: false, forbidden: "Your data is downloaded from the page itself.")
        router.group("me/export")
            .add(middleware: SignInGate(server: self, action: "export", pageOnly: pageOnly))
            .group(context: SignedInContext.self)
            .get { _, context in try await export(viewer: context.viewer) }
    }

    private func export(viewer: String) async throws -> Response {
        let backend = backend
        let document: String
        do {
            document = try await threadPool.runIfActive { try backend.exportPersonalData(viewer: viewer).json }
        } catch {
            return Self.plainAnswer(
                .internalServerError, Self.neutralFailure(error, viewer: viewer, logger: logger) + "\n")
        }
        logger.info(
            "personal data exported",
            metadata: ["viewer": .string(viewer), "bytes": .stringConvertible(document.utf8.count)])
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.cacheControl] = "no-store"
        headers[.contentDisposition] = "attachment; filename=\"\(Self.exportFileName(viewer))\""
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: document)))
    }

    /// `swipe-export-ID.json`, the id's characters other than letters,
    /// digits, `.`, `-` and `_` written as `_` (a header's quoted string
    /// holds no quote, no control character, nothing a file system refuses).
    static func exportFileName(_ viewer: String) -> String {
        let safe = String(
            String.UnicodeScalarView(
                viewer.unicodeScalars.map { scalar in
                    scalar.isASCII
                        && (CharacterSet.alphanumerics.contains(scalar) || "._-".unicodeScalars.contains(scalar))
                        ? scalar : "_"
                }))
        return "swipe-export-\(safe.isEmpty ? "profile" : String(safe.prefix(100))).json"
    }
}
