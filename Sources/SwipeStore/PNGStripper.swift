/// A PNG's chunks copied without its text and metadata chunks (`PhotoBytes`).
enum PNGStripper {
    /// tEXt, zTXt and iTXt hold free text (often the software, the author,
    /// a comment), eXIf a whole EXIF block (GPS included), tIME when it was made.
    static let dropped: Set<String> = ["tEXt", "zTXt", "iTXt", "eXIf", "tIME"]

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
            if !dropped.contains(type) { out += input[at..<(at + 12 + length)] }
            at += 12 + length
            if type == "IEND" { return out }
        }
    }
}

/// A WebP's RIFF chunks copied without EXIF and XMP (`PhotoBytes`), the
/// VP8X flags that announce them cleared and the RIFF size set to match.
enum WebPStripper {
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
            if type != "EXIF" && type != "XMP " {
                if type == "VP8X" { vp8x = out.count }
                out += input[at..<end]
            }
            at = end
        }
        guard sawImage else { throw PhotoDamage(reason: "it holds no image data") }
        if let vp8x, vp8x + 8 < out.count {
            out[vp8x + 8] &= ~UInt8(0x08 | 0x04)  // the EXIF and XMP flags
        }
        let size = out.count - 8
        out.replaceSubrange(
            4..<8,
            with: [UInt8(size & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 24 & 0xFF)])
        return out
    }
}
