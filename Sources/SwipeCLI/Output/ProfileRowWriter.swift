import SwipeStore

/// `swipe profiles` as JSON, JSONL or CSV straight from the stored rows'
/// bytes into a 64 KiB buffer, handed to the output stream a buffer at a
/// time: no `Profile`, no `String` per field, so a million rows stream at
/// close to the sqlite3 shell's speed in flat memory.
///
/// The output is byte for byte what `RecordWriter` writes for the same
/// profiles (a test holds the two equal): strings escaped as
/// `JSONText.quoted` does, `photos` and `interests` copied as stored (the
/// importer wrote them with `JSONText.array`), CSV fields quoted as
/// `CSVText.field` does, lists joined with `;`.
public struct ProfileRowWriter {
    public let format: OutputFormat
    private var buffer: [UInt8] = []
    private var rowsWritten = 0
    static let flushSize = 1 << 16
    static let columns = StoreRecords.profileColumns
    /// `"id":`, `"name":`… with the separators, made once.
    private static let keys: [[UInt8]] = columns.enumerated().map { index, name in
        Array(((index == 0 ? "{" : ",") + JSONText.quoted(name) + ":").utf8)
    }

    /// `format` must be json, jsonl or csv (a table is laid out from text).
    public init(format: OutputFormat) {
        precondition(format != .table, "tables are written by RecordWriter")
        self.format = format
        buffer.reserveCapacity(Self.flushSize + 4096)
    }

    /// Writes one row of `Store.forEachProfileRow` (columns in `profileColumns` order).
    public mutating func write(_ row: Row, to out: inout some TextOutputStream) {
        switch format {
        case .json, .jsonl:
            if format == .json { append(rowsWritten == 0 ? "[\n" : ",\n") }
            for column in 0..<8 {
                buffer.append(contentsOf: Self.keys[column])
                let bytes = row.bytes(Int32(column))
                switch column {
                case 2: append(String(row.int(2)))
                case 6, 7: if let bytes, !bytes.isEmpty { buffer.append(contentsOf: bytes) } else { append("[]") }
                default: if let bytes { appendJSONString(bytes) } else { append("null") }
                }
            }
            buffer.append(0x7D)  // }
            if format == .jsonl { buffer.append(0x0A) }
        case .csv:
            if rowsWritten == 0 { append(CSVText.line(Self.columns)) }
            for column in 0..<8 {
                if column > 0 { buffer.append(0x2C) }
                let bytes = row.bytes(Int32(column))
                switch column {
                case 2: append(String(row.int(2)))
                case 6, 7: if let bytes { appendCSVList(bytes) }
                default: if let bytes { appendCSVField(bytes) }
                }
            }
            buffer.append(0x0D)
            buffer.append(0x0A)
        case .table:
            break
        }
        rowsWritten += 1
        if buffer.count >= Self.flushSize { flush(to: &out) }
    }

    /// Ends the output as `RecordWriter.finish` does and hands over the rest.
    public mutating func finish(to out: inout some TextOutputStream) {
        switch format {
        case .json: append(rowsWritten == 0 ? "[]\n" : "\n]\n")
        case .csv: if rowsWritten == 0 { append(CSVText.line(Self.columns)) }
        case .jsonl, .table: break
        }
        flush(to: &out)
    }

    private mutating func flush(to out: inout some TextOutputStream) {
        guard !buffer.isEmpty else { return }
        out.write(String(decoding: buffer, as: UTF8.self))
        buffer.removeAll(keepingCapacity: true)
    }

    private mutating func append(_ text: String) {
        buffer.append(contentsOf: text.utf8)
    }

    /// `bytes` as a JSON string literal, escaped exactly as `JSONText.quoted`:
    /// quotes, backslashes, C0 and C1 controls, DEL, U+2028 and U+2029.
    private mutating func appendJSONString(_ bytes: UnsafeBufferPointer<UInt8>) {
        buffer.append(0x22)
        var runStart = 0
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            var escape: [UInt8]? = nil
            var width = 1
            switch byte {
            case 0x22: escape = [0x5C, 0x22]
            case 0x5C: escape = [0x5C, 0x5C]
            case 0x0A: escape = [0x5C, 0x6E]
            case 0x0D: escape = [0x5C, 0x72]
            case 0x09: escape = [0x5C, 0x74]
            case 0x00..<0x20, 0x7F: escape = Self.unicodeEscape(UInt32(byte))
            case 0xC2 where index + 1 < count && (0x80...0x9F).contains(bytes[index + 1]):
                escape = Self.unicodeEscape(UInt32(bytes[index + 1]))
                width = 2
            case 0xE2 where index + 2 < count && bytes[index + 1] == 0x80 && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
                escape = Self.unicodeEscape(bytes[index + 2] == 0xA8 ? 0x2028 : 0x2029)
                width = 3
            default: break
            }
            if let escape {
                if runStart < index { buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index])) }
                buffer.append(contentsOf: escape)
                index += width
                runStart = index
            } else {
                index += 1
            }
        }
        if runStart < count { buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<count])) }
        buffer.append(0x22)
    }

    /// `\uXXXX` with four lower-case hex digits.
    private static func unicodeEscape(_ value: UInt32) -> [UInt8] {
        let digits = Array("0123456789abcdef".utf8)
        return [0x5C, 0x75] + [12, 8, 4, 0].map { digits[Int((value >> UInt32($0)) & 0xF)] }
    }

    /// A CSV field as `CSVText.field` writes it: quoted (quotes doubled) when
    /// it holds a comma, a quote or a line break, or begins or ends with a space.
    private mutating func appendCSVField(_ bytes: UnsafeBufferPointer<UInt8>) {
        let needsQuotes = bytes.contains { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }
            || bytes.first == 0x20 || bytes.last == 0x20
        guard needsQuotes else {
            buffer.append(contentsOf: bytes)
            return
        }
        buffer.append(0x22)
        for byte in bytes {
            buffer.append(byte)
            if byte == 0x22 { buffer.append(0x22) }
        }
        buffer.append(0x22)
    }

    /// A stored JSON list as one CSV field, its items joined with `;`.
    private mutating func appendCSVList(_ json: UnsafeBufferPointer<UInt8>) {
        let text = String(decoding: json, as: UTF8.self)
        let joined = (JSONText.strings(fromArray: text) ?? []).joined(separator: ";")
        var utf8 = joined
        utf8.withUTF8 { appendCSVField($0) }
    }
}
