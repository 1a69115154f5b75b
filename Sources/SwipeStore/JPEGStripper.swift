/// A JPEG's segments walked and copied without what tells about the person
/// or the camera (`PhotoBytes`): the image is never decoded or re-encoded.
enum JPEGStripper {
    static let soi: UInt8 = 0xD8, eoi: UInt8 = 0xD9, sos: UInt8 = 0xDA, com: UInt8 = 0xFE
    static let app0: UInt8 = 0xE0, app1: UInt8 = 0xE1, app14: UInt8 = 0xEE

    static func strip(_ input: [UInt8]) throws(PhotoDamage) -> [UInt8] {
        var out: [UInt8] = [0xFF, soi]
        out.reserveCapacity(input.count)
        var at = 2
        var orientation: Int?
        var sawFrame = false, sawScan = false
        /// Where the orientation EXIF goes: after JFIF's APP0 when there is one, else after SOI.
        var exifSlot = 2
        while true {
            guard at < input.count, input[at] == 0xFF else {
                throw PhotoDamage(
                    reason: at >= input.count ? "it ends before its end marker" : "no segment marker at byte \(at)")
            }
            while at < input.count && input[at] == 0xFF { at += 1 }  // fill bytes
            guard at < input.count else { throw PhotoDamage(reason: "it ends before its end marker") }
            let marker = input[at]
            at += 1
            if marker == eoi {
                out += [0xFF, eoi]
                break
            }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) {  // TEM, RSTn: no length
                out += [0xFF, marker]
                continue
            }
            guard marker != 0x00, marker != soi, let length = input.be16(at), length >= 2, at + length <= input.count
            else { throw PhotoDamage(reason: "segment \(hex(marker)) at byte \(at - 2) runs past the end") }
            let payload = input[(at + 2)..<(at + length)]
            let keep: Bool
            switch marker {
            case app0: keep = payload.starts(with: Array("JFIF\0".utf8))
            case app1:
                keep = false
                if payload.starts(with: Array("Exif\0\0".utf8)) {
                    orientation = orientation ?? exifOrientation(Array(payload.dropFirst(6)))
                }
            case app14: keep = payload.starts(with: Array("Adobe".utf8)) && payload.count == 12
            case 0xE2...0xEF, com: keep = false
            default: keep = true
            }
            if keep {
                out += [0xFF, marker]
                out += input[at..<(at + length)]
                if marker == app0 && exifSlot == 2 { exifSlot = out.count }
            }
            if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) { sawFrame = true }
            at += length
            if marker == sos {
                guard sawFrame else { throw PhotoDamage(reason: "image data before its frame header") }
                sawScan = true
                // The entropy-coded data runs to the next marker that is not
                // a stuffed 0xFF00 or a restart marker.
                var end = at
                while end + 1 < input.count {
                    if input[end] == 0xFF {
                        let next = input[end + 1]
                        if next == 0x00 || (0xD0...0xD7).contains(next) {
                            end += 2
                            continue
                        }
                        if next != 0xFF { break }
                    }
                    end += 1
                }
                guard end + 1 < input.count else { throw PhotoDamage(reason: "it ends before its end marker") }
                out += input[at..<end]
                at = end
            }
        }
        guard sawScan else { throw PhotoDamage(reason: "it holds no image data") }
        if let orientation, orientation != 1 {
            out.insert(contentsOf: orientationEXIF(orientation), at: exifSlot)
        }
        return out
    }

    /// The width and height of the first frame header (SOFn: precision,
    /// then height and width, big-endian), or nil when none comes before
    /// the image data or the segments do not read.
    static func dimensions(_ input: [UInt8]) -> (width: Int, height: Int)? {
        var at = 2
        while at < input.count, input[at] == 0xFF {
            while at < input.count && input[at] == 0xFF { at += 1 }
            guard at < input.count else { return nil }
            let marker = input[at]
            at += 1
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { continue }
            guard marker != eoi, marker != sos, let length = input.be16(at), length >= 2 else { return nil }
            if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard let height = input.be16(at + 3), let width = input.be16(at + 5) else { return nil }
                return (width, height)
            }
            at += length
        }
        return nil
    }

    /// The Orientation tag (0x0112) of IFD0 of an EXIF block (the TIFF
    /// structure after `Exif\0\0`), or nil; values other than 1…8 are nil.
    static func exifOrientation(_ tiff: [UInt8]) -> Int? {
        guard tiff.count >= 8 else { return nil }
        let little: Bool
        if tiff.starts(with: [0x49, 0x49]) {
            little = true
        } else if tiff.starts(with: [0x4D, 0x4D]) {
            little = false
        } else {
            return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= tiff.count else { return nil }
            return little ? Int(tiff[at]) | Int(tiff[at + 1]) << 8 : Int(tiff[at]) << 8 | Int(tiff[at + 1])
        }
        func u32(_ at: Int) -> Int? { little ? tiff.le32(at) : tiff.be32(at) }
        guard let ifd = u32(4), let count = u16(ifd) else { return nil }
        for entry in 0..<min(count, 512) {
            let base = ifd + 2 + entry * 12
            guard let tag = u16(base) else { return nil }
            if tag == 0x0112, u16(base + 2) == 3, u32(base + 4) == 1, let value = u16(base + 8), (1...8).contains(value)
            {
                return value
            }
        }
        return nil
    }

    /// An APP1 segment holding an EXIF block with IFD0's Orientation tag
    /// alone (big-endian TIFF): 36 bytes with its marker.
    static func orientationEXIF(_ value: Int) -> [UInt8] {
        let tiff: [UInt8] = [
            0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08,  // header, IFD0 at 8
            0x00, 0x01,  // one entry
            0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, UInt8(value), 0x00, 0x00,  // Orientation SHORT 1
            0x00, 0x00, 0x00, 0x00,  // no next IFD
        ]
        let payload = Array("Exif\0\0".utf8) + tiff
        let length = payload.count + 2
        return [0xFF, app1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    static func hex(_ byte: UInt8) -> String { "FF" + String(byte, radix: 16, uppercase: true) }
}
