import Foundation
import SwipeStore

/// One CSV record and the physical line it starts on.
public struct CSVRecord: Hashable, Sendable {
    public var fields: [String]
    public var line: Int
}

/// One record as UTF-8 bytes in a single buffer with each field's end
/// offset: what the importer reads, so a row costs no `String` per field.
/// Each field is followed by one separator byte (a comma), so a plain line
/// is its bytes as read, copied once, and `bytes.count` is the record's
/// size in the file (each field and its comma or line break, quotes aside).
package struct CSVRawRecord {
    package var bytes: [UInt8] = []
    package var ends: [Int] = []
    package var line = 0

    package init() {}

    package var count: Int { ends.count }

    /// Field `index`'s offsets in `bytes`.
    package func range(_ index: Int) -> Range<Int> { (index == 0 ? 0 : ends[index - 1] + 1)..<ends[index] }

    /// Field `index` as a string (already checked to be UTF-8).
    package func string(_ index: Int) -> String { String(decoding: bytes[range(index)], as: UTF8.self) }
}

/// A streaming RFC 4180 reader working on bytes, never on `Character`s: it
/// reads the file through one fixed buffer, so memory stays flat on any size.
///
/// Quoted fields may hold commas, doubled quotes and line breaks; records end
/// in LF, CRLF or CR; a UTF-8 byte-order mark is skipped; the last record
/// needs no final line break; blank lines are skipped. A quote inside an
/// unquoted field is kept as data (lenient, as most writers mean it).
public final class CSVReader {
    /// The file being read.
    public let path: String
    /// Its size in bytes when opened (for progress).
    public let fileSize: Int
    private let descriptor: Int32
    /// The read buffer: allocated once, freed in deinit. A raw pointer, not
    /// an array, so the per-run scans pay no exclusivity check or
    /// uniqueness test (about 1,000 instructions a profile row).
    private let buffer: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private var position = 0
    private var filled = 0
    private var consumedBeforeBuffer = 0
    private var atEnd = false
    private var line = 1
    private var pendingCR = false
    private var scratch = CSVRawRecord()

    /// Bytes consumed so far.
    public var bytesRead: Int { consumedBeforeBuffer + position }

    private enum State { case fieldStart, unquoted, quoted, quoteInQuoted }

    /// What `path` reads as when it is `standardInput`.
    public static let standardInputName = "<stdin>"
    /// The path that means standard input (`swipe import -`).
    public static let standardInput = "-"

    /// Opens `path`; `-` reads standard input (and `path` is then `<stdin>`,
    /// the name messages give it).
    ///
    /// - Throws: `CSVError.notFound` or `CSVError.unreadable`.
    public init(path: String, bufferSize: Int = 1 << 16) throws {
        let isStandardInput = path == Self.standardInput
        let descriptor = isStandardInput ? dup(STDIN_FILENO) : open(path, O_RDONLY | O_CLOEXEC)
        let path = isStandardInput ? Self.standardInputName : path
        guard descriptor >= 0 else {
            if errno == ENOENT { throw CSVError.notFound(path: path) }
            throw CSVError.unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR else {
            close(descriptor)
            throw CSVError.unreadable(path: path, reason: "is a folder")
        }
        self.path = path
        self.descriptor = descriptor
        self.fileSize = Int(info.st_size)
        capacity = max(bufferSize, 4)
        buffer = .allocate(capacity: capacity)
        try refill()
        if filled >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF { position = 3 }
    }

    deinit {
        close(descriptor)
        buffer.deallocate()
    }

    /// The next record, or nil at the end of the file.
    public func next() throws -> CSVRecord? {
        guard try next(into: &scratch) else { return nil }
        return CSVRecord(fields: (0..<scratch.count).map(scratch.string), line: scratch.line)
    }

    /// Reads the next record into `record`, reusing its storage (no `String`
    /// per field): false at the end of the file. Each field is checked to be
    /// UTF-8, as `next()` checks it.
    package func next(into record: inout CSVRawRecord) throws -> Bool {
        record.bytes.removeAll(keepingCapacity: true)
        record.ends.removeAll(keepingCapacity: true)
        if try nextPlainLine(into: &record) { return true }
        var fieldStart = 0
        var ascii = true
        var state = State.fieldStart
        var recordLine = line
        var quoteLine = line
        var started = false

        func endField() throws {
            if !ascii {
                let valid = record.bytes.withUnsafeBufferPointer {
                    Self.isValidUTF8(UnsafeBufferPointer(rebasing: $0[fieldStart...]))
                }
                guard valid else { throw CSVError.invalidUTF8(file: path, line: recordLine) }
            }
            record.ends.append(record.bytes.count)
            record.bytes.append(0x2C)
            fieldStart = record.bytes.count
            ascii = true
        }
        func append(_ byte: UInt8) {
            if byte >= 0x80 { ascii = false }
            record.bytes.append(byte)
        }

        while true {
            if state == .unquoted || state == .quoted {
                appendRun(quoted: state == .quoted, to: &record, ascii: &ascii)
            }
            guard let (byte, byteLine) = try nextByte() else {
                switch state {
                case .quoted: throw CSVError.unterminatedQuote(file: path, line: quoteLine)
                case .fieldStart where !started: return false
                default:
                    try endField()
                    record.line = recordLine
                    return true
                }
            }
            let isBreak = byte == 0x0A || byte == 0x0D
            if !started {
                if isBreak { continue }  // a blank line, or the LF of a CRLF
                started = true
                recordLine = byteLine
            }
            // Outside quotes (after a closing one too) a comma ends the field
            // and a line break the record.
            if state != .quoted && (byte == 0x2C || isBreak) {
                try endField()
                if isBreak {
                    record.line = recordLine
                    return true
                }
                state = .fieldStart
                continue
            }
            switch state {
            case .fieldStart where byte == 0x22:
                state = .quoted
                quoteLine = byteLine
            case .fieldStart, .unquoted:
                append(byte)
                state = .unquoted
            case .quoted:
                if byte == 0x22 {
                    state = .quoteInQuoted
                } else if byte == 0x0A, record.bytes.count > fieldStart, record.bytes.last == 0x0D {
                    // A CRLF inside quotes is one line break, stored as LF
                    // (a Windows file's multi-line bio reads as a Unix one).
                    // Only line breaks reach here, so the CR was the byte just before.
                    record.bytes[record.bytes.count - 1] = 0x0A
                } else {
                    append(byte)
                }
            case .quoteInQuoted:
                guard byte == 0x22 else { throw CSVError.junkAfterQuote(file: path, line: byteLine) }
                append(byte)
                state = .quoted
            }
        }
    }

    /// Reads the next record when it is a plain line (nearly every one): whole
    /// in the buffer, without a quote, ending in LF or CRLF. Its bytes are
    /// copied in one go and its commas found with memchr, where the state
    /// machine took a copy, a few checks and an array append per field (a
    /// third of the reading thread's instructions). False, with nothing
    /// read, for anything else, which `next(into:)` reads byte by byte.
    private func nextPlainLine(into record: inout CSVRawRecord) throws -> Bool {
        guard position < filled else { return false }
        if pendingCR {
            // The previous record ended in CR (the byte-by-byte path stops
            // there): its LF is skipped, as `nextByte` would skip it, and
            // either way the line count moves on once.
            pendingCR = false
            line += 1
            if buffer[position] == 0x0A {
                position += 1
                guard position < filled else { return false }
            }
        }
        var high: UInt64 = 0
        let stop = ByteScan.csvRunEnd(buffer, from: position, to: filled, quoted: true, high: &high)
        guard stop > position, stop < filled else { return false }  // a blank line, a quote, or the buffer's end
        let next: Int
        if buffer[stop] == 0x0A {
            next = stop + 1
        } else if buffer[stop] == 0x0D, stop + 1 < filled, buffer[stop + 1] == 0x0A {
            next = stop + 2
        } else {
            return false  // a quote, or a CR that may stand alone
        }
        let text = UnsafeBufferPointer(start: buffer + position, count: stop - position)
        // Commas are ASCII, so the line is well-formed UTF-8 exactly when each field is.
        if high & 0x8080_8080_8080_8080 != 0 && !Self.isValidUTF8(text) {
            throw CSVError.invalidUTF8(file: path, line: line)
        }
        record.bytes.append(contentsOf: text)
        record.bytes.append(0x2C)
        var start = position
        while let comma = memchr(buffer + start, 0x2C, stop - start) {
            let offset = buffer.distance(to: comma.assumingMemoryBound(to: UInt8.self))
            record.ends.append(offset - position)
            start = offset + 1
        }
        record.ends.append(stop - position)
        record.line = line
        line += 1
        position = next
        return true
    }

    /// Appends the buffered bytes up to the next one that may end or change
    /// the field (a quote, a line break, or outside quotes a comma) in one
    /// copy: such a run moves no line, so `nextByte` has nothing to track.
    private func appendRun(quoted: Bool, to record: inout CSVRawRecord, ascii: inout Bool) {
        guard !pendingCR else { return }
        var high: UInt64 = 0
        let end = ByteScan.csvRunEnd(buffer, from: position, to: filled, quoted: quoted, high: &high)
        guard end > position else { return }
        record.bytes.append(contentsOf: UnsafeBufferPointer(start: buffer + position, count: end - position))
        if high & 0x8080_8080_8080_8080 != 0 { ascii = false }
        position = end
    }

    /// Whether `bytes` are well-formed UTF-8 (Unicode Table 3-7: no overlong
    /// forms, no surrogates, nothing past U+10FFFF), which is what
    /// `String(validating:)` accepts, without building the string.
    package static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        var index = ByteScan.firstNonASCII(base, from: 0, to: count)
        @inline(__always) func isContinuation(_ byte: UInt8) -> Bool { byte & 0xC0 == 0x80 }
        while index < count {
            let lead = base[index]
            switch lead {
            case 0x00...0x7F:
                index = ByteScan.firstNonASCII(base, from: index + 1, to: count)
                continue
            case 0xC2...0xDF:
                guard index + 1 < count, isContinuation(base[index + 1]) else { return false }
                index += 2
            case 0xE0...0xEF:
                guard index + 2 < count, isContinuation(base[index + 2]) else { return false }
                let second = base[index + 1]
                let valid =
                    switch lead {
                    case 0xE0: (0xA0...0xBF).contains(second)  // no overlong forms
                    case 0xED: (0x80...0x9F).contains(second)  // no surrogates
                    default: isContinuation(second)
                    }
                guard valid else { return false }
                index += 3
            case 0xF0...0xF4:
                guard index + 3 < count, isContinuation(base[index + 2]), isContinuation(base[index + 3]) else {
                    return false
                }
                let second = base[index + 1]
                let valid =
                    switch lead {
                    case 0xF0: (0x90...0xBF).contains(second)  // no overlong forms
                    case 0xF4: (0x80...0x8F).contains(second)  // nothing past U+10FFFF
                    default: isContinuation(second)
                    }
                guard valid else { return false }
                index += 4
            default:
                return false
            }
        }
        return true
    }

    /// The next byte and the physical line it is on. A line ends after LF,
    /// after CRLF, or after a CR not followed by LF.
    private func nextByte() throws -> (UInt8, Int)? {
        if position == filled {
            if atEnd { return nil }
            try refill()
            if position == filled { return nil }
        }
        let byte = buffer[position]
        position += 1
        if pendingCR {
            pendingCR = false
            if byte != 0x0A { line += 1 }
        }
        let byteLine = line
        if byte == 0x0A { line += 1 } else if byte == 0x0D { pendingCR = true }
        return (byte, byteLine)
    }

    private func refill() throws {
        consumedBeforeBuffer += filled
        position = 0
        filled = 0
        while filled < capacity {
            let count = read(descriptor, buffer + filled, capacity - filled)
            if count < 0 {
                if errno == EINTR { continue }
                throw CSVError.unreadable(path: path, reason: String(cString: strerror(errno)))
            }
            if count == 0 {
                atEnd = true
                break
            }
            filled += count
        }
    }
}
