import Hummingbird
import NIOCore

/// A request body read for `POST /photos`, never more than `limit` bytes of
/// it held: a body declared (`Content-Length`) or found (chunked) larger is
/// told as too large with its size and its first bytes (what it is, for the
/// refusal's words), and is not kept. What is left unread of it, Hummingbird
/// reads and drops before the connection's next request.
enum UploadBody: Equatable {
    /// The whole body.
    case complete([UInt8])
    /// More than the limit: `bytes` in all (as declared, or counted), and its first bytes.
    case tooLarge(bytes: Int, head: [UInt8])

    /// How many first bytes are kept of a body too large: enough to recognise a JPEG, PNG or WebP.
    static let headBytes = 16

    /// Reads `body` up to `limit` bytes. A declared length over the limit
    /// is refused after the first chunk (its first bytes), without reading
    /// the rest; a chunked body is counted to its end but kept only up to the limit.
    static func read<Body: AsyncSequence>(_ body: Body, declaredLength: Int?, limit: Int) async throws -> UploadBody
    where Body.Element == ByteBuffer {
        var kept: [UInt8] = []
        var head: [UInt8] = []
        var total = 0
        if let declaredLength, declaredLength > limit {
            for try await chunk in body {
                head = Array(chunk.readableBytesView.prefix(headBytes))
                break
            }
            return .tooLarge(bytes: declaredLength, head: head)
        }
        kept.reserveCapacity(min(declaredLength ?? 64 * 1024, limit))
        for try await chunk in body {
            if head.count < headBytes { head += chunk.readableBytesView.prefix(headBytes - head.count) }
            total += chunk.readableBytes
            if total <= limit {
                kept += chunk.readableBytesView
            } else if !kept.isEmpty {
                kept = []  // over the limit: nothing more is kept, and what was goes
            }
        }
        return total > limit ? .tooLarge(bytes: total, head: head) : .complete(kept)
    }
}
