import SwipeSession
import SwipeStore

/// `swipe profiles` straight from the stored rows' bytes into a 64 KiB
/// buffer, handed to the output stream a buffer at a time: no `Profile`, no
/// `String` per field, so a million rows stream at close to the sqlite3
/// shell's speed in flat memory.
///
/// The output is byte for byte what `RecordWriter` writes for the same
/// profiles (a test holds the two equal): strings escaped as
/// `JSONText.quoted` does, `photos` and `interests` copied as stored (the
/// importer wrote them with `JSONText.array`), CSV fields quoted as
/// `CSVText.field` does, lists joined with `;`. A table's first page goes
/// through `TableLayout` itself, which fixes the widths; every later row is
/// laid out here from bytes (printable ASCII cells without a `String`).
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

    /// The table's first page, until it has fixed the widths.
    private var page: TableLayout?
    private var widths: [Int] = []
    private var numeric: [Bool] = []
    /// Laid-out cells of text that is not plain ASCII, by column and bytes:
    /// cities, genders, interests and names repeat, and laying out such text
    /// (sanitizing, walking grapheme clusters for the width) is the table's
    /// main cost. Short values only, and at most `cacheLimit` a column, so
    /// memory stays flat.
    private var laidOut: [[[UInt8]: [UInt8]]] = Array(repeating: [:], count: 14)
    static let cacheLimit = 4096

    public init(format: OutputFormat) {
        self.format = format
        if format == .table { page = TableLayout(columns: Self.columns) }
        buffer.reserveCapacity(Self.flushSize + 4096)
    }

    /// Writes one row of `SQLiteStore.forEachProfileRow` (columns in `profileColumns` order).
    public mutating func write(_ row: some StoredRow, to out: inout some TextOutputStream) {
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
            for (offset, cell) in Self.discoveryCells(row).enumerated() {
                buffer.append(contentsOf: Self.keys[8 + offset])
                switch cell {
                case .int(let value): append(String(value))
                case .real(let value): append(value.isFinite ? Cell.text(real: value) : "null")
                case .list(let items): append(JSONText.array(items))
                case .text(let text): append(JSONText.quoted(text))
                case .null: append("null")
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
            for cell in Self.discoveryCells(row) {
                buffer.append(0x2C)
                var text: String
                switch cell {
                case .int(let value): text = String(value)
                case .real(let value): text = Cell.text(real: value)
                case .list(let items): text = items.joined(separator: ";")
                case .text(let value): text = value
                case .null: text = ""
                }
                text.withUTF8 { appendCSVField($0) }
            }
            buffer.append(0x0D)
            buffer.append(0x0A)
        case .table:
            writeTableRow(row)
        }
        rowsWritten += 1
        if buffer.count >= Self.flushSize { flush(to: &out) }
    }

    /// Ends the output as `RecordWriter.finish` does and hands over the rest.
    public mutating func finish(to out: inout some TextOutputStream) {
        switch format {
        case .json: append(rowsWritten == 0 ? "[]\n" : "\n]\n")
        case .csv: if rowsWritten == 0 { append(CSVText.line(Self.columns)) }
        case .table:
            if var page {
                var text = ""
                page.finish(to: &text)
                append(text)
                self.page = nil
            }
        case .jsonl: break
        }
        flush(to: &out)
    }

    private mutating func writeTableRow(_ row: some StoredRow) {
        if var table = page {
            var text = ""
            table.append(Self.cells(row), to: &text)
            append(text)
            if let widths = table.widths {
                self.widths = widths
                numeric = table.numeric
                page = nil
            } else {
                page = table
            }
            return
        }
        let lineStart = buffer.count
        for column in 0..<8 {
            if column > 0 { append("  ") }
            let width = widths[column]
            if column == 2 {
                var text = String(row.int(2))
                text.withUTF8 { appendTableCell($0, width: width, alignRight: numeric[2]) }
                continue
            }
            guard let bytes = row.bytes(Int32(column)) else {
                appendTableCell(UnsafeBufferPointer(start: nil, count: 0), width: width, alignRight: numeric[column])
                continue
            }
            if column >= 6 {
                // A stored list shown as "a; b": items are quoted and never
                // hold a raw quote, so without escapes the separators are `","`.
                let joined = Self.listText(bytes)
                joined.withUnsafeBufferPointer { appendTableCell($0, column: column) }
            } else {
                appendTableCell(bytes, column: column)
            }
        }
        for (offset, cell) in Self.discoveryCells(row).enumerated() {
            append("  ")
            var text: String
            switch cell {
            case .int(let value): text = String(value)
            case .real(let value): text = Cell.text(real: value)
            case .list(let items): text = TerminalText.sanitized(items.joined(separator: "; "))
            case .text(let value): text = TerminalText.sanitized(value)
            case .null: text = ""
            }
            text.withUTF8 { appendTableCell($0, width: widths[8 + offset], alignRight: numeric[8 + offset]) }
        }
        while buffer.count > lineStart, buffer.last == 0x20 { buffer.removeLast() }
        buffer.append(0x0A)
    }

    /// `appendTableCell(_:width:alignRight:)` for `column`, remembering how
    /// short non-ASCII values were laid out.
    private mutating func appendTableCell(_ bytes: UnsafeBufferPointer<UInt8>, column: Int) {
        let width = widths[column], alignRight = numeric[column]
        guard bytes.count <= 64, !bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
            appendTableCell(bytes, width: width, alignRight: alignRight)
            return
        }
        let key = Array(bytes)
        if let cell = laidOut[column][key] {
            buffer.append(contentsOf: cell)
            return
        }
        let start = buffer.count
        appendTableCell(bytes, width: width, alignRight: alignRight)
        if laidOut[column].count < Self.cacheLimit { laidOut[column][key] = Array(buffer[start...]) }
    }

    /// One table cell as `TerminalText.padded(sanitized(text), to: width)`:
    /// printable ASCII straight from the bytes, anything else through the text functions.
    private mutating func appendTableCell(_ bytes: UnsafeBufferPointer<UInt8>, width: Int, alignRight: Bool) {
        if bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            let shown = min(bytes.count, width)
            let cut = bytes.count > width
            let used = cut ? width : shown
            if alignRight { buffer.append(contentsOf: repeatElement(0x20, count: width - used)) }
            if cut {
                if width > 0 {
                    buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[0..<(width - 1)]))
                    buffer.append(contentsOf: "…".utf8)
                }
            } else {
                buffer.append(contentsOf: bytes)
            }
            if !alignRight { buffer.append(contentsOf: repeatElement(0x20, count: width - used)) }
            return
        }
        append(
            TerminalText.padded(
                TerminalText.sanitized(String(decoding: bytes, as: UTF8.self)), to: width, alignRight: alignRight))
    }

    /// The cells `StoreRecords.cells` makes of the profile in `row`.
    static func cells(_ row: some StoredRow) -> [Cell] {
        (0..<8).map { column -> Cell in
            if column == 2 { return .int(row.int(2)) }
            guard let bytes = row.bytes(Int32(column)) else { return .null }
            let text = String(decoding: bytes, as: UTF8.self)
            if column >= 6 { return .list(JSONText.strings(fromArray: text) ?? []) }
            return .text(text)
        } + discoveryCells(row)
    }

    /// Columns 8…13, the discovery fields, as `StoreRecords.cells` makes them
    /// (few and short: made as cells, then written as `RecordWriter` writes them).
    static func discoveryCells(_ row: some StoredRow) -> [Cell] {
        let seeking = row.bytes(10).map { String(decoding: $0, as: UTF8.self) }
        return [
            row.isNull(8) ? .null : .real(row.double(8)), row.isNull(9) ? .null : .real(row.double(9)),
            .list(seeking.map { $0.split(separator: ";").map(String.init) } ?? []),
            .int(row.int(11)), .int(row.int(12)), row.isNull(13) ? .null : .real(row.double(13)),
        ]
    }

    /// A stored JSON list as the table shows it, UTF-8: items joined with "; ".
    static func listText(_ json: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        if json.count >= 4, !json.contains(0x5C), json.first == 0x5B, json[1] == 0x22, json.last == 0x5D,
            json[json.count - 2] == 0x22
        {
            // ["a","b"] → a; b, with no escapes to undo.
            var out: [UInt8] = []
            out.reserveCapacity(json.count)
            var index = 2
            let end = json.count - 2
            while index < end {
                if json[index] == 0x22, index + 2 < end, json[index + 1] == 0x2C, json[index + 2] == 0x22 {
                    out.append(0x3B)
                    out.append(0x20)
                    index += 3
                } else {
                    out.append(json[index])
                    index += 1
                }
            }
            return out
        }
        if json.count == 2 { return [] }  // []
        return Array(
            (JSONText.strings(fromArray: String(decoding: json, as: UTF8.self)) ?? []).joined(separator: "; ").utf8)
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
            case 0xE2
            where index + 2 < count && bytes[index + 1] == 0x80
                && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
                escape = Self.unicodeEscape(bytes[index + 2] == 0xA8 ? 0x2028 : 0x2029)
                width = 3
            default: break
            }
            if let escape {
                if runStart < index {
                    buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                }
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
        let needsQuotes =
            bytes.contains { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }
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
