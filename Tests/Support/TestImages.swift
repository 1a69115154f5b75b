/// Images made in the tests, byte by byte, so that what they carry is known
/// exactly: a baseline JPEG (DC-only: every 8×8 block one flat grey, coded
/// with the standard DC table, which any decoder reads) with the metadata a
/// phone writes (EXIF with GPS tags and an orientation, XMP, a comment), and
/// a PNG (stored deflate blocks) with text and eXIf chunks.
public enum TestImages {
    /// 48°51'29.59"N 2°17'40.32"E, as EXIF's GPS rationals write it: the
    /// bytes a test looks for after stripping.
    public static let gpsLatitude: [UInt8] = rationals([(48, 1), (51, 1), (2959, 100)])
    public static let gpsLongitude: [UInt8] = rationals([(2, 1), (17, 1), (4032, 100)])
    public static let comment = "taken at home, 12 rue Example"
    public static let xmp =
        "http://ns.adobe.com/xap/1.0/\0<x:xmpmeta><rdf:Description photoshop:City=\"Paris\"/></x:xmpmeta>"

    /// A JPEG and its entropy-coded scan data (between SOS's header and EOI).
    public struct JPEG {
        public var bytes: [UInt8]
        public var scan: [UInt8]
    }

    /// A `width` × `height` JPEG (multiples of 8) whose blocks' greys follow
    /// `shade` (0…255 per block column and row); `metadata` adds an EXIF
    /// APP1 with GPS tags and Orientation `orientation`, an XMP APP1, an
    /// ICC APP2 and a COM comment.
    public static func jpeg(
        width: Int = 32, height: Int = 16, metadata: Bool = true, orientation: Int = 6,
        shade: (Int, Int) -> Int = { x, y in (x * 37 + y * 91) % 256 }
    ) -> JPEG {
        var out: [UInt8] = [0xFF, 0xD8]
        func segment(_ marker: UInt8, _ payload: [UInt8]) {
            out += [0xFF, marker, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        }
        segment(0xE0, Array("JFIF\0".utf8) + [1, 1, 0, 0, 1, 0, 1, 0, 0])
        if metadata {
            segment(0xE1, Array("Exif\0\0".utf8) + exif(orientation: orientation))
            segment(0xE1, Array(xmp.utf8))
            segment(0xE2, Array("ICC_PROFILE\0".utf8) + [1, 1] + Array(repeating: 0x42, count: 40))
            segment(0xFE, Array(comment.utf8))
        }
        segment(0xDB, [0] + Array(repeating: 1, count: 64))
        segment(
            0xC0, [8, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 1, 1, 0x11, 0])
        let dcCounts: [UInt8] = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0]
        segment(0xC4, [0x00] + dcCounts + Array(0...11))
        segment(0xC4, [0x10, 1] + Array(repeating: 0, count: 15) + [0x00])  // AC: EOB alone, code "0"
        segment(0xDA, [1, 1, 0x00, 0, 63, 0])
        // The standard DC codes, made canonically from the counts.
        var codes: [(code: Int, length: Int)] = []
        var code = 0
        for (index, count) in dcCounts.enumerated() {
            for _ in 0..<count { codes.append((code, index + 1)); code += 1 }
            code <<= 1
        }
        var bits: [Bool] = []
        func put(_ value: Int, _ length: Int) {
            for shift in stride(from: length - 1, through: 0, by: -1) { bits.append((value >> shift) & 1 == 1) }
        }
        var previous = 0
        for by in 0..<(height / 8) {
            for bx in 0..<(width / 8) {
                let dc = (max(0, min(255, shade(bx, by))) - 128) * 8
                let diff = dc - previous
                previous = dc
                let category = diff == 0 ? 0 : (Int.bitWidth - abs(diff).leadingZeroBitCount)
                put(codes[category].code, codes[category].length)
                if category > 0 { put(diff > 0 ? diff : diff - 1 + (1 << category), category) }
                put(0, 1)  // EOB
            }
        }
        while bits.count % 8 != 0 { bits.append(true) }
        var scan: [UInt8] = []
        for start in stride(from: 0, to: bits.count, by: 8) {
            let byte = bits[start..<start + 8].reduce(UInt8(0)) { $0 << 1 | ($1 ? 1 : 0) }
            scan.append(byte)
            if byte == 0xFF { scan.append(0) }
        }
        out += scan + [0xFF, 0xD9]
        return JPEG(bytes: out, scan: scan)
    }

    /// A big-endian TIFF block: IFD0 with Make, Orientation and a GPS IFD
    /// pointer; the GPS IFD with latitude and longitude.
    public static func exif(orientation: Int) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] {
            [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
        }
        func entry(_ tag: Int, _ type: Int, _ count: Int, _ value: [UInt8]) -> [UInt8] {
            u16(tag) + u16(type) + u32(count) + value + Array(repeating: 0, count: 4 - value.count)
        }
        // Layout: header 8, IFD0 at 8 (3 entries: 2 + 36 + 4 = 42) → 50: "Make" text (8) → 58: GPS IFD
        // (4 entries: 2 + 48 + 4 = 54) → 112: latitude (24) → 136: longitude (24).
        let make = Array("Phone X\0".utf8)
        var tiff: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A] + u32(8)
        tiff +=
            u16(3) + entry(0x010F, 2, make.count, u32(50)) + entry(0x0112, 3, 1, u16(orientation))
            + entry(0x8825, 4, 1, u32(58)) + u32(0)
        tiff += make
        tiff +=
            u16(4) + entry(1, 2, 2, Array("N\0".utf8)) + entry(2, 5, 3, u32(112)) + entry(3, 2, 2, Array("E\0".utf8))
            + entry(4, 5, 3, u32(136)) + u32(0)
        tiff += gpsLatitude + gpsLongitude
        return tiff
    }

    static func rationals(_ values: [(Int, Int)]) -> [UInt8] {
        var out: [UInt8] = []
        for (n, d) in values {
            for v in [n, d] {
                let word = UInt32(v)
                out += [UInt8(word >> 24), UInt8(word >> 16 & 0xFF), UInt8(word >> 8 & 0xFF), UInt8(word & 0xFF)]
            }
        }
        return out
    }

    /// A `width` × `height` RGB PNG; `metadata` adds tEXt, iTXt, eXIf and tIME chunks.
    public static func png(width: Int = 4, height: Int = 4, metadata: Bool = true, seed: UInt8 = 0) -> [UInt8] {
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        func be32(_ v: Int) -> [UInt8] {
            [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
        }
        func chunk(_ type: String, _ data: [UInt8]) {
            let body = Array(type.utf8) + data
            out += be32(data.count) + body + be32(Int(crc32(body)))
        }
        chunk("IHDR", be32(width) + be32(height) + [8, 2, 0, 0, 0])
        if metadata {
            chunk("tEXt", Array("Comment\0".utf8) + Array(comment.utf8))
            chunk("tIME", [0x07, 0xEA, 11, 24, 12, 0, 0])
            chunk("eXIf", exif(orientation: 1))
        }
        var raw: [UInt8] = []
        for y in 0..<height {
            raw.append(0)
            for x in 0..<width {
                raw += [UInt8(truncatingIfNeeded: x * 60) &+ seed, UInt8(truncatingIfNeeded: y * 60), 200]
            }
        }
        var zlib: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let end = min(raw.count, start + 65535)
            let count = end - start
            zlib += [
                end == raw.count ? 1 : 0, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF),
                UInt8(~count >> 8 & 0xFF),
            ]
            zlib += raw[start..<end]
            start = end
        } while start < raw.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in raw {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        zlib += be32(Int(b << 16 | a))
        chunk("IDAT", zlib)
        if metadata { chunk("iTXt", Array("Author\0\0\0\0\0".utf8) + Array("Ana".utf8)) }
        chunk("IEND", [])
        return out
    }

    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// Whether `needle` occurs in `haystack`.
    public static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { haystack[$0..<$0 + needle.count].elementsEqual(needle) }
    }
}
