import Foundation
import HTTPTypes
import Hummingbird
import SwipeCore
import SwipeSession
import SwipeStore

/// `POST /photos`: the page adds a photo by uploading its bytes
/// (Documentation/Photos.md, "Uploading from the page"), since a socket's
/// `me photo add` may not name a file on the server. The body is the file
/// itself (any `Content-Type`: what it is, its bytes say); `?name=` is the
/// file's name, only to word a refusal.
///
/// The same rules as `me photo add FILE`, in the same words: `PhotoBytes`
/// recognises and strips it (at most 5 MB as given), the store adds it
/// (`ViewerScope.changePhotos`, at most 9 per profile, no second copy).
/// A body over 5 MB is refused without being held whole.
///
/// Only the page itself may upload: the request must carry an `Origin` of
/// this server (a form on another site cannot post a photo into the
/// viewer's profile) and a valid sign-in. The answer is the socket's JSON
/// for `me photo add` (`ok`, `me`, `notice`, or `error`); the viewer's
/// open pages are told `me-changed`.
extension SwipeServer {
    func addUploadRoutes(to router: Router<ServeContext>) {
        let pageOnly = PageOnly(originRequired: true, forbidden: "Photos are uploaded from the page itself.")
        router.group("photos")
            .add(middleware: SignInGate(server: self, action: "photo upload", pageOnly: pageOnly))
            .group(context: SignedInContext.self)
            .post { request, context in try await upload(request, viewer: context.viewer) }
    }

    private func upload(_ request: Request, viewer: String) async throws -> Response {
        let name = Self.uploadName(request.uri.queryParameters["name"].map(String.init))
        let command = "me photo add " + name
        let declared = request.headers[.contentLength].flatMap { Int($0) }
        let photo: PhotoBytes
        do {
            switch try await UploadBody.read(request.body, declaredLength: declared, limit: PhotoLimits.maximumBytes) {
            case .tooLarge(let bytes, let head):
                let refusal = PhotoRefusal.tooLarge(bytes: bytes, kind: PhotoBytes.kind(of: head)?.name ?? "file")
                return Self.uploadRefusal(refusal, command: command, name: name)
            case .complete(let bytes):
                photo = try PhotoBytes(checking: bytes)
            }
        } catch let refusal as PhotoRefusal {
            return Self.uploadRefusal(refusal, command: command, name: name)
        }
        let backend = backend
        let profile: Profile
        do {
            profile = try await threadPool.runIfActive { try backend.addPhoto(photo, viewer: viewer) }
        } catch let error as StoreError {
            guard case .photoRefused(let refusal) = error else {
                return Self.uploadFailure(Self.neutralFailure(error, viewer: viewer, logger: logger), command: command)
            }
            // The store's own refusals (9 photos, a second copy) read as the socket's `me photo add` does.
            return Self.uploadAnswer(
                Self.status(of: refusal),
                [("ok", false), ("command", .string(command)), ("error", .string(error.description))])
        } catch {
            return Self.uploadFailure(Self.neutralFailure(error, viewer: viewer, logger: logger), command: command)
        }
        hub.send(Self.meChanged, to: viewer)
        logger.info(
            "photo uploaded", metadata: ["viewer": .string(viewer), "bytes": .stringConvertible(photo.bytes.count)])
        var members: [(String, JSONValue)] = [("ok", true), ("command", .string(command))]
        if case .object(let me) = MeAnswer(profile: profile, notice: "photo added").json { members += me }
        var response = Self.uploadAnswer(.created, members)
        if let path = profile.photos.last { response.headers[.location] = path }
        return response
    }

    /// What a person called the file, for the refusal's words: its last
    /// path component, without control characters, at most 100 characters;
    /// "the upload" when the page gave none.
    static func uploadName(_ given: String?) -> String {
        let last = (given ?? "").split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        let clean = String(
            String.UnicodeScalarView(
                last.unicodeScalars.filter {
                    !$0.properties.isDefaultIgnorableCodePoint && !CharacterSet.controlCharacters.contains($0)
                })
        )
        .trimmingCharacters(in: .whitespaces)
        return clean.isEmpty ? "the upload" : String(clean.prefix(100))
    }

    /// A refusal of the bytes: `me photo add: NAME: REASON`, as `me photo add FILE` words it.
    static func uploadRefusal(_ refusal: PhotoRefusal, command: String, name: String) -> Response {
        uploadAnswer(
            status(of: refusal),
            [("ok", false), ("command", .string(command)), ("error", .string("me photo add: \(name): \(refusal)"))])
    }

    static func uploadFailure(_ message: String, command: String) -> Response {
        uploadAnswer(.internalServerError, [("ok", false), ("command", .string(command)), ("error", .string(message))])
    }

    /// 413 too large (in bytes or in pixels), 415 not an image, 422 damaged, 409 for the profile's own rules.
    static func status(of refusal: PhotoRefusal) -> HTTPResponse.Status {
        switch refusal {
        case .tooLarge, .tooManyPixels: .contentTooLarge
        case .notAnImage: .unsupportedMediaType
        case .damaged: .unprocessableContent
        case .notAllowed, .tooMany, .noSuchPhoto, .duplicate: .conflict
        }
    }

    static func uploadAnswer(_ status: HTTPResponse.Status, _ members: [(String, JSONValue)]) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(
            status: status, headers: headers,
            body: .init(byteBuffer: ByteBuffer(string: JSONValue.object(members).serialized + "\n")))
    }

    static func plainAnswer(_ status: HTTPResponse.Status, _ text: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; charset=utf-8"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
