import Foundation
import HTTPTypes
import Hummingbird
import SwipeStore

/// `/photos/ID`: a photo the database stores (Documentation/Photos.md), for
/// a signed-in viewer only, to whom its owner was shown (the path's
/// `?for=` grant, `PhotoGrant`, or a standing tie), and never one whose
/// owner and the viewer are blocked from each other (answered as a photo
/// that does not exist). The
/// path is the photo's unguessable id (`PhotoID`); the ETag is its
/// content's SHA-256, so a browser that has it asks with `If-None-Match` and
/// gets a 304 without the bytes being read. `Cache-Control: private`: a
/// shared cache must not keep what needs a sign-in.
extension SwipeServer {
    /// How long a browser may keep a photo without asking again: an hour, so
    /// that a block made meanwhile reaches its cache soon.
    static let photoMaxAge = 3600

    func addPhotoRoutes(to router: Router<ServeContext>) {
        let photos = router.group("photos")
            .add(middleware: SignInGate(server: self, action: "photo", loggedPath: "/photos/…"))
            .group(context: SignedInContext.self)
        photos.get(":id") { request, context in
            try await photo(request, id: context.parameters.get("id") ?? "", viewer: context.viewer)
        }
        photos.get { request, context in try await photo(request, id: "", viewer: context.viewer) }
    }

    private func photo(_ request: Request, id: String, viewer: String) async throws -> Response {
        var headers = HTTPFields()
        let current = Self.entityTags(request.headers[values: .ifNoneMatch])
        let backend = backend
        let shown = request.uri.queryParameters.get(PhotoGrant.parameter)
        let photo = try await threadPool.runIfActive {
            try backend.servedPhoto(id: id, viewer: viewer, grant: shown, unlessAnyOf: current)
        }
        guard let photo else {
            headers[.contentType] = "text/plain; charset=utf-8"
            return Response(
                status: .notFound, headers: headers, body: .init(byteBuffer: ByteBuffer(string: "Not found.\n")))
        }
        headers[.eTag] = "\"\(photo.sha256)\""
        headers[.cacheControl] = "private, max-age=\(Self.photoMaxAge)"
        guard let bytes = photo.bytes else { return Response(status: .notModified, headers: headers) }
        headers[.contentType] = photo.mediaType.rawValue
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// The entity tags of `If-None-Match` values (`"a", W/"b"`), unquoted;
    /// `*` matches any.
    static func entityTags(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",") }.map { tag in
            var text = tag.trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("W/") { text.removeFirst(2) }
            return text.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
    }
}
