import SwipeStore

/// libFuzzer target for `PhotoBytes` (fuzz/run.sh links it with SwipeStore):
/// the JPEG, PNG and WebP walkers read bytes a stranger chose, before they
/// are stored. The input is the file (corpus: a JPEG with EXIF, a PNG with
/// text chunks).
///
/// Checked: no crash or sanitizer report; a refusal is a `PhotoRefusal`;
/// what is accepted keeps its type, is no larger than given (but for the
/// 34-byte orientation EXIF), and strips to itself again (idempotent).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPhotoBytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let given = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let photo = try PhotoBytes(checking: given)
        precondition(PhotoBytes.kind(of: photo.bytes) == photo.mediaType, "the type changed")
        precondition(photo.bytes.count <= given.count + 36, "stripping grew the file")
        let again = try PhotoBytes(checking: photo.bytes)
        precondition(again.bytes == photo.bytes, "stripping is not idempotent")
    } catch {
        // A PhotoRefusal (the only error init(checking:) throws).
    }
    return 0
}
