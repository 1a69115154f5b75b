/// A PNG's chunks copied, keeping only those that draw the picture
/// (`PhotoBytes`). An allow-list, not a deny-list: text (tEXt, zTXt, iTXt),
/// EXIF (eXIf, GPS included), C2PA manifests (caBX), GPS of its own (gpSs),
/// ICC profiles (iCCP, which name the device), times and any chunk nobody
/// has named yet all go.
enum PNGStripper {
    /// The header, palette, transparency, colour space and the image data.
    static let kept: Set<String> = ["IHDR", "PLTE", "tRNS", "gAMA", "cHRM", "sRGB", "IDAT", "IEND"]

    /// The width and height its IHDR says (after the signature, the chunk's
    /// length and type: bytes 16 to 23), or nil.
    static func dimensions(_ input: [UInt8]) -> (width: Int, height: Int)? {
        guard input.count >= 24, Array(input[12..<16]) == Array("IHDR".utf8),
            let width = input.be32(16), let height = input.be32(20)
        else { return nil }
        return (width, height)
    }

    static func strip(_ input: [UInt8]) throws(PhotoDamage) -> [UInt8] {
        var out = Array(input[0..<8])
        out.reserveCapacity(input.count)
        var at = 8
        var first = true
        while true {
            guard let length = input.be32(at), at + 12 + length <= input.count else {
                throw PhotoDamage(
                    reason: at >= input.count
                        ? "it ends before its IEND chunk" : "the chunk at byte \(at) runs past the end")
            }
            let type = String(decoding: input[(at + 4)..<(at + 8)], as: UTF8.self)
            if first && type != "IHDR" { throw PhotoDamage(reason: "it does not begin with an IHDR chunk") }
            first = false
            if kept.contains(type) { out += input[at..<(at + 12 + length)] }
            at += 12 + length
            if type == "IEND" { return out }
        }
    }
}

/// A WebP's RIFF chunks copied, keeping only those that draw the picture
/// (`PhotoBytes`): VP8, VP8L, VP8X, ALPH, ANIM and ANMF. EXIF, XMP, ICCP,
/// C2PA and any unknown chunk go; the VP8X flags that announce ICC, EXIF
/// and XMP are cleared and the RIFF size set to match.
enum WebPStripper {
    static let kept: Set<String> = ["VP8 ", "VP8L", "VP8X", "ALPH", "ANIM", "ANMF"]

    /// The canvas size: VP8X's (24-bit fields, minus one), else the lossy
    /// frame's (14-bit fields after the start code), else the lossless
    /// one's (14-bit fields after the 0x2F signature); nil when none reads.
    static func dimensions(_ input: [UInt8]) -> (width: Int, height: Int)? {
        guard input.count >= 30 else { return nil }
        let type = String(decoding: input[12..<16], as: UTF8.self)
        func le24(_ at: Int) -> Int { Int(input[at]) | Int(input[at + 1]) << 8 | Int(input[at + 2]) << 16 }
        switch type {
        case "VP8X":
            return (le24(24) + 1, le24(27) + 1)
        case "VP8 ":
            // Frame tag (3 bytes), start code 9D 01 2A, then width and height.
            guard input[23] == 0x9D, input[24] == 0x01, input[25] == 0x2A else { return nil }
            let width = (Int(input[26]) | Int(input[27]) << 8) & 0x3FFF
            let height = (Int(input[28]) | Int(input[29]) << 8) & 0x3FFF
            return (width, height)
        case "VP8L":
            guard input[20] == 0x2F else { return nil }
            let bits = Int(input[21]) | Int(input[22]) << 8 | Int(input[23]) << 16 | Int(input[24]) << 24
            return ((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
        default:
            return nil
        }
    }

    static func strip(_ input: [UInt8]) throws(PhotoDamage) -> [UInt8] {
        guard let riffSize = input.le32(4), riffSize + 8 <= input.count, riffSize >= 4 else {
            throw PhotoDamage(reason: "its RIFF size runs past the end")
        }
        var out = Array(input[0..<12])
        var at = 12
        var vp8x: Int?
        var sawImage = false
        while at < riffSize + 8 {
            guard let size = input.le32(at + 4), at + 8 + size <= riffSize + 8 else {
                throw PhotoDamage(reason: "the chunk at byte \(at) runs past the end")
            }
            let type = String(decoding: input[at..<(at + 4)], as: UTF8.self)
            let padded = size + (size & 1)
            let end = min(at + 8 + padded, riffSize + 8)
            if type == "VP8 " || type == "VP8L" || type == "ANIM" { sawImage = true }
            if kept.contains(type) {
                if type == "VP8X" { vp8x = out.count }
                out += input[at..<end]
            }
            at = end
        }
        guard sawImage else { throw PhotoDamage(reason: "it holds no image data") }
        if let vp8x, vp8x + 8 < out.count {
            out[vp8x + 8] &= ~UInt8(0x20 | 0x08 | 0x04)  // the ICC, EXIF and XMP flags
        }
        let size = out.count - 8
        out.replaceSubrange(
            4..<8,
            with: [UInt8(size & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 24 & 0xFF)])
        return out
    }
}
