import SwipeTestSupport
import Testing

@testable import SwipeStore

/// Photos carry only pixels (issue 36, defect 3): a PNG keeps only IHDR,
/// PLTE, tRNS, gAMA, cHRM, sRGB, IDAT and IEND, a WebP only VP8, VP8L,
/// VP8X, ALPH, ANIM and ANMF, whatever else a camera or an editor adds
/// (C2PA manifests with GPS, GPS chunks, ICC profiles, chunks nobody has
/// named); and a picture over 40 megapixels or 10,000 px a side is refused
/// by the size its header says, naming it.
@Suite struct PhotoAllowListTests {
    /// What a C2PA manifest of a phone photo holds: its place.
    static let manifest = Array("c2pa.assertions exif:GPSLatitude 48,51.4932N exif:GPSLongitude 2,17.672E".utf8)

    static func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(data.count) + body + be32(Int(TestImages.crc32(body)))
    }

    static func be32(_ v: Int) -> [UInt8] {
        [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }

    /// `png` with `chunks` inserted right after its IHDR (8 + 25 bytes).
    static func inserting(_ chunks: [UInt8], into png: [UInt8]) -> [UInt8] {
        Array(png[0..<33]) + chunks + Array(png[33...])
    }

    /// A PNG whose IHDR says `width` × `height`, with a token IDAT: the
    /// header is all the limit reads (a bomb's file is small).
    static func pngHeader(width: Int, height: Int) -> [UInt8] {
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            + pngChunk("IHDR", be32(width) + be32(height) + [8, 2, 0, 0, 0])
            + pngChunk("IDAT", [0x78, 0x01, 0x01, 0x00, 0x00, 0xFF, 0xFF, 0, 0, 0, 1]) + pngChunk("IEND", [])
    }

    static func webpChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let n = data.count
        return Array(type.utf8) + [UInt8(n & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n >> 16 & 0xFF), 0] + data
            + (n % 2 == 1 ? [0] : [])
    }

    static func riff(_ body: [UInt8]) -> [UInt8] {
        let n = body.count + 4
        return Array("RIFF".utf8) + [UInt8(n & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n >> 16 & 0xFF), 0]
            + Array("WEBP".utf8) + body
    }

    /// VP8X's payload: the flags byte, three reserved, then the canvas
    /// width and height minus one, 24 bits each, little-endian.
    static func vp8x(flags: UInt8, width: Int = 1, height: Int = 1) -> [UInt8] {
        func le24(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF)] }
        return [flags, 0, 0, 0] + le24(width - 1) + le24(height - 1)
    }

    static let vp8l: [UInt8] = [0x2F, 0, 0, 0, 0x10, 0x07, 0x10, 0x11, 0x11, 0x88, 0x88, 0xFE, 0x07, 0]

    @Test func aPNGKeepsOnlyTheChunksThatDrawIt() throws {
        let clean = TestImages.png(metadata: false)
        let extra =
            Self.pngChunk("eXIf", TestImages.exif(orientation: 1))
            + Self.pngChunk("gpSs", TestImages.gpsLatitude)
            + Self.pngChunk("caBX", Self.manifest)
            + Self.pngChunk("iCCP", Array("Phone X camera\0\0".utf8) + [0x78, 0x01, 0x03, 0x00])
            + Self.pngChunk("zzZz", Array("who knows".utf8))
            + Self.pngChunk("gAMA", Self.be32(45455)) + Self.pngChunk("sRGB", [0])
        let given = Self.inserting(extra, into: clean)
        // The test's own file carries what it must, or it proves nothing.
        #expect(TestImages.contains(given, Self.manifest))
        #expect(TestImages.contains(given, TestImages.gpsLatitude))
        let photo = try PhotoBytes(checking: given)
        #expect(!TestImages.contains(photo.bytes, Array("GPSLatitude".utf8)))
        #expect(!TestImages.contains(photo.bytes, TestImages.gpsLatitude))
        #expect(!TestImages.contains(photo.bytes, Array("Phone X".utf8)))
        #expect(!TestImages.contains(photo.bytes, Array("who knows".utf8)))
        // Exactly the picture with the colour-space chunks it may keep.
        let kept = Self.pngChunk("gAMA", Self.be32(45455)) + Self.pngChunk("sRGB", [0])
        #expect(photo.bytes == Self.inserting(kept, into: clean))
    }

    @Test func aWebPKeepsOnlyTheChunksThatDrawIt() throws {
        // Flags: ICC 0x20, alpha 0x10, EXIF 0x08, XMP 0x04, animation 0x02.
        let given = Self.riff(
            Self.webpChunk("VP8X", Self.vp8x(flags: 0x20 | 0x10 | 0x08 | 0x04))
                + Self.webpChunk("ICCP", Array("Phone X camera".utf8))
                + Self.webpChunk("ALPH", [0, 0xFF])
                + Self.webpChunk("VP8L", Self.vp8l)
                + Self.webpChunk("C2PA", Self.manifest)
                + Self.webpChunk("EXIF", Array("MM\0*".utf8) + TestImages.gpsLatitude)
                + Self.webpChunk("XMP ", Array("<x:xmpmeta/>".utf8))
                + Self.webpChunk("ABCD", [1, 2, 3]))
        #expect(TestImages.contains(given, Self.manifest))
        let photo = try PhotoBytes(checking: given)
        #expect(
            photo.bytes
                == Self.riff(
                    Self.webpChunk("VP8X", Self.vp8x(flags: 0x10)) + Self.webpChunk("ALPH", [0, 0xFF])
                        + Self.webpChunk("VP8L", Self.vp8l)))
        #expect(!TestImages.contains(photo.bytes, Array("GPSLatitude".utf8)))
    }

    @Test func aPictureOver40MegapixelsOr10000PixelsASideIsRefusedNamingItsSize() throws {
        #expect(throws: PhotoRefusal.tooManyPixels(width: 20_000, height: 20_000, kind: "PNG")) {
            try PhotoBytes(checking: Self.pngHeader(width: 20_000, height: 20_000))
        }
        #expect(
            PhotoRefusal.tooManyPixels(width: 20_000, height: 20_000, kind: "PNG").description
                == "the PNG is 20000 × 20000 pixels (400.0 megapixels), "
                + "over the 40 megapixels and 10,000 pixels a side a photo may be")
        // The edges: 40,000,000 pixels and 10,000 a side pass; one more of either does not.
        #expect(try PhotoBytes(checking: Self.pngHeader(width: 10_000, height: 4_000)).mediaType == .png)
        #expect(throws: PhotoRefusal.tooManyPixels(width: 10_000, height: 4_001, kind: "PNG")) {
            try PhotoBytes(checking: Self.pngHeader(width: 10_000, height: 4_001))
        }
        #expect(throws: PhotoRefusal.tooManyPixels(width: 10_001, height: 1, kind: "PNG")) {
            try PhotoBytes(checking: Self.pngHeader(width: 10_001, height: 1))
        }
        // A JPEG's frame header (SOF0: length, precision, height, width) says 8000 × 6000: 48 MP.
        var jpeg = TestImages.jpeg(width: 64, height: 32).bytes
        let frame = try #require((0..<jpeg.count - 1).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 })
        jpeg.replaceSubrange((frame + 5)..<(frame + 9), with: [0x17, 0x70, 0x1F, 0x40])
        #expect(throws: PhotoRefusal.tooManyPixels(width: 8_000, height: 6_000, kind: "JPEG")) {
            try PhotoBytes(checking: jpeg)
        }
        #expect(try PhotoBytes(checking: TestImages.jpeg(width: 64, height: 32).bytes).mediaType == .jpeg)
        // A WebP's canvas (VP8X) and a lossless frame's own header.
        let canvas = Self.riff(
            Self.webpChunk("VP8X", Self.vp8x(flags: 0, width: 16_384, height: 16_384))
                + Self.webpChunk("VP8L", Self.vp8l))
        #expect(throws: PhotoRefusal.tooManyPixels(width: 16_384, height: 16_384, kind: "WebP")) {
            try PhotoBytes(checking: canvas)
        }
        // VP8L: 14 bits of width - 1, then 14 of height - 1 (16384 × 16384 here).
        let bomb: [UInt8] = [0x2F, 0xFF, 0xFF, 0xFF, 0x0F] + Array(Self.vp8l[5...])
        #expect(throws: PhotoRefusal.tooManyPixels(width: 16_384, height: 16_384, kind: "WebP")) {
            try PhotoBytes(checking: Self.riff(Self.webpChunk("VP8L", bomb)))
        }
        #expect(try PhotoBytes(checking: Self.riff(Self.webpChunk("VP8L", Self.vp8l))).mediaType == .webp)
    }
}
