import Crypto
import Foundation
import SwipeTestSupport
import Testing

@testable import SwipeStore

/// The rules on a photo's bytes (Documentation/Photos.md), with no store:
/// recognised by its first bytes, at most 5 MB, metadata stripped from the
/// JPEG (GPS included) and the PNG while the image data stays byte for byte.
@Suite struct PhotoBytesTests {
    /// The segments of a JPEG up to its scan data: (marker, payload).
    static func segments(_ jpeg: [UInt8]) -> [(UInt8, [UInt8])] {
        var out: [(UInt8, [UInt8])] = []
        var at = 2
        while at + 4 <= jpeg.count, jpeg[at] == 0xFF {
            let marker = jpeg[at + 1]
            let length = Int(jpeg[at + 2]) << 8 | Int(jpeg[at + 3])
            out.append((marker, Array(jpeg[(at + 4)..<(at + 2 + length)])))
            if marker == 0xDA { break }
            at += 2 + length
        }
        return out
    }

    @Test func aJPEGLosesItsGPSAndKeepsItsImageData() throws {
        let image = TestImages.jpeg()
        // The test's own image carries what it should, or the test proves nothing.
        #expect(TestImages.contains(image.bytes, TestImages.gpsLatitude))
        #expect(TestImages.contains(image.bytes, TestImages.gpsLongitude))
        #expect(TestImages.contains(image.bytes, Array(TestImages.comment.utf8)))

        let photo = try PhotoBytes(checking: image.bytes)
        #expect(photo.mediaType == .jpeg)
        #expect(!TestImages.contains(photo.bytes, TestImages.gpsLatitude))
        #expect(!TestImages.contains(photo.bytes, TestImages.gpsLongitude))
        #expect(!TestImages.contains(photo.bytes, Array(TestImages.comment.utf8)))
        #expect(!TestImages.contains(photo.bytes, Array("Phone X".utf8)))
        #expect(!TestImages.contains(photo.bytes, Array("xmpmeta".utf8)))
        #expect(!TestImages.contains(photo.bytes, Array("ICC_PROFILE".utf8)))
        // The scan data is unchanged and the file still ends the image.
        #expect(TestImages.contains(photo.bytes, image.scan + [0xFF, 0xD9]))
        #expect(photo.bytes.suffix(image.scan.count + 2).elementsEqual(image.scan + [0xFF, 0xD9]))
        // What stays: JFIF, the tables, the frame, the scan header, in order,
        // and the orientation alone, in an EXIF of its own.
        let kept = Self.segments(photo.bytes).map(\.0)
        #expect(kept == [0xE0, 0xE1, 0xDB, 0xC0, 0xC4, 0xC4, 0xDA])
        let exif = try #require(Self.segments(photo.bytes).first { $0.0 == 0xE1 }?.1)
        #expect(exif.count == 32)
        #expect(JPEGStripper.exifOrientation(Array(exif.dropFirst(6))) == 6)
        let original = Self.segments(image.bytes)
        for marker: UInt8 in [0xDB, 0xC0, 0xC4, 0xDA] {
            #expect(
                Self.segments(photo.bytes).filter { $0.0 == marker }.map(\.1)
                    == original.filter { $0.0 == marker }.map(\.1))
        }
        #expect(photo.givenSize == image.bytes.count)
        #expect(photo.sha256 == Self.hex(Array(SHA256.hash(data: photo.bytes))))
    }

    @Test func anUprightJPEGKeepsNoEXIFAtAll() throws {
        let photo = try PhotoBytes(checking: TestImages.jpeg(orientation: 1).bytes)
        #expect(!Self.segments(photo.bytes).contains { $0.0 == 0xE1 })
        #expect(try PhotoBytes(checking: photo.bytes).bytes == photo.bytes, "stripping is idempotent")
    }

    @Test func aPNGLosesItsTextChunksAndKeepsItsImage() throws {
        let png = TestImages.png()
        #expect(TestImages.contains(png, Array(TestImages.comment.utf8)))
        let photo = try PhotoBytes(checking: png)
        #expect(photo.mediaType == .png)
        #expect(!TestImages.contains(photo.bytes, Array(TestImages.comment.utf8)))
        #expect(!TestImages.contains(photo.bytes, TestImages.gpsLatitude))
        #expect(!TestImages.contains(photo.bytes, Array("tIME".utf8)))
        #expect(!TestImages.contains(photo.bytes, Array("Author".utf8)))
        #expect(photo.bytes == TestImages.png(metadata: false), "exactly the image without the chunks")
    }

    @Test func aWebPLosesItsEXIFAndXMPChunks() throws {
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let n = data.count
            return Array(type.utf8) + [UInt8(n & 0xFF), UInt8(n >> 8 & 0xFF), 0, 0] + data + (n % 2 == 1 ? [0] : [])
        }
        let vp8l: [UInt8] = [0x2F, 0, 0, 0, 0x10, 0x07, 0x10, 0x11, 0x11, 0x88, 0x88, 0xFE, 0x07, 0]
        let body =
            chunk("VP8X", [0x0C, 0, 0, 0, 0, 0, 0, 0, 0, 0]) + chunk("VP8L", vp8l)
            + chunk("EXIF", Array("MM\0*".utf8) + TestImages.gpsLatitude) + chunk("XMP ", Array("<x:xmpmeta/>".utf8))
        func riff(_ body: [UInt8]) -> [UInt8] {
            let n = body.count + 4
            return Array("RIFF".utf8) + [UInt8(n & 0xFF), UInt8(n >> 8 & 0xFF), 0, 0] + Array("WEBP".utf8) + body
        }
        let photo = try PhotoBytes(checking: riff(body))
        #expect(photo.mediaType == .webp)
        #expect(photo.bytes == riff(chunk("VP8X", [0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0]) + chunk("VP8L", vp8l)))
    }

    /// Anything else is refused naming its size and what it is.
    @Test func otherFilesAreRefusedNamingWhatTheyAre() throws {
        let gif = Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0]
        #expect(throws: PhotoRefusal.notAnImage(bytes: 13, kind: "GIF")) { try PhotoBytes(checking: gif) }
        let html = Array("<!DOCTYPE html><p>hi".utf8)
        #expect(throws: PhotoRefusal.notAnImage(bytes: html.count, kind: "HTML")) { try PhotoBytes(checking: html) }
        #expect(throws: PhotoRefusal.notAnImage(bytes: 0, kind: "nothing")) { try PhotoBytes(checking: []) }
        #expect(
            PhotoRefusal.notAnImage(bytes: 4, kind: PhotoBytes.describe([1, 2, 0xAB, 0xFF])).description
                == "not a JPEG, PNG or WebP image (4 bytes of unknown type, beginning 01 02 ab ff)")
        // A file name says nothing: a PNG named .jpg is a PNG, and a JPEG's bytes decide it is one.
        #expect(try PhotoBytes(checking: TestImages.png()).mediaType == .png)
    }

    @Test func fiveMegabytesIsTheLimit() throws {
        let image = TestImages.jpeg(metadata: false).bytes
        // A comment pads the file to exactly the limit, then one byte over.
        func padded(to size: Int) -> [UInt8] {
            var bytes = Array(image[0..<2])
            var left = size - image.count
            while left > 0 {
                let payload = left > 65537 ? min(65533, left - 8) : left - 4
                bytes += [0xFF, 0xFE, UInt8((payload + 2) >> 8), UInt8((payload + 2) & 0xFF)]
                bytes += Array(repeating: 0x20, count: payload)
                left -= payload + 4
            }
            return bytes + image[2...]
        }
        let atLimit = padded(to: 5 * 1024 * 1024)
        #expect(atLimit.count == 5_242_880)
        #expect(try PhotoBytes(checking: atLimit).bytes == PhotoBytes(checking: image).bytes)
        var over = atLimit
        over.insert(contentsOf: [0xFF, 0xFE, 0x00, 0x03, 0x20], at: 2)
        #expect(throws: PhotoRefusal.tooLarge(bytes: 5_242_885, kind: "JPEG")) { try PhotoBytes(checking: over) }
        #expect(
            PhotoRefusal.tooLarge(bytes: 5_242_885, kind: "JPEG").description
                == "the JPEG is 5.0 MB (5242885 bytes), over the 5.0 MB (5242880 bytes) a photo may be")
    }

    @Test(arguments: [
        ("cut in its header", 20),
        ("cut in its scan", -3),
    ])
    func aDamagedJPEGIsRefused(_ what: String, _ cut: Int) throws {
        let bytes = TestImages.jpeg().bytes
        let damaged = Array(cut > 0 ? bytes.prefix(cut) : bytes.dropLast(-cut))
        #expect(throws: PhotoRefusal.self) { try PhotoBytes(checking: damaged) }
        do {
            _ = try PhotoBytes(checking: damaged)
        } catch {
            guard case .damaged(_, "JPEG", _) = error else { Issue.record("\(what): \(error)"); return }
        }
    }

    @Test func sha256MatchesTheStandardAndSwiftCrypto() throws {
        #expect(
            Self.hex(SHA256Digest.hash(Array("abc".utf8)))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            Self.hex(SHA256Digest.hash([]))
                == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        var generator = SystemRandomNumberGenerator()
        for length in [55, 56, 63, 64, 65, 119, 1000, 100_003] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(SHA256Digest.hash(bytes) == Array(SHA256.hash(data: bytes)), "length \(length)")
        }
    }

    @Test func photoItemsAreReadAsTheRulesSay() {
        #expect(PhotoItem("https://example.org/a.jpg") == .url("https://example.org/a.jpg"))
        #expect(PhotoItem("photos/ana.jpg") == .file("photos/ana.jpg"))
        #expect(PhotoItem("http://example.org/a.jpg") == .refused("http://example.org/a.jpg"))
        #expect(PhotoItem("ftp://x/a.jpg") == .refused("ftp://x/a.jpg"))
        #expect(PhotoItem("file:///etc/passwd") == .refused("file:///etc/passwd"))
        #expect(PhotoItem("/etc/passwd") == .refused("/etc/passwd"))
        #expect(PhotoItem("javascript:alert(1)") == .refused("javascript:alert(1)"))
        let id = String(repeating: "ab", count: 16)
        #expect(PhotoItem("/photos/" + id) == .stored(id: id))
        #expect(PhotoItem("/photos/../x") == .refused("/photos/../x"))
        #expect(
            PhotoID.make(secret: "s", profile: "ana", sha256: "x")
                != PhotoID.make(secret: "t", profile: "ana", sha256: "x"))
        #expect(PhotoID.isWellFormed(PhotoID.make(secret: "s", profile: "ana", sha256: "x")))
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
}
