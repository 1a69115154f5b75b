import Foundation
import PropertyBased
import SwipeTestSupport
import Testing

@testable import SwipeCSV

/// The reader (its plain-line path and its byte-by-byte one, across buffer
/// ends) against a direct reading of the rules it documents, on random files
/// made of the bytes that matter: commas, quotes, CR, LF, blanks, a
/// two-byte letter and an invalid byte.
@Suite struct CSVReaderModelTests {
    let folder = TemporaryFolder()

    enum Outcome: Equatable {
        case records([[[UInt8]]], lines: [Int])
        case unterminatedQuote(line: Int)
        case junkAfterQuote(line: Int)
        case invalidUTF8(line: Int)
    }

    /// RFC 4180 as `CSVReader` documents it, one byte at a time over the whole file.
    static func model(_ input: [UInt8]) -> Outcome {
        var bytes = input[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        let data = Array(bytes)
        var records: [[[UInt8]]] = [], lines: [Int] = []
        var fields: [[UInt8]] = [], field: [UInt8] = []
        var line = 1, recordLine = 1, quoteLine = 1
        var started = false
        enum State { case start, plain, quoted, closed }
        var state = State.start
        var index = 0
        func endField() -> Bool {
            guard String(validating: field, as: UTF8.self) != nil else { return false }
            fields.append(field)
            field = []
            return true
        }
        while index < data.count {
            let byte = data[index]
            let byteLine = line
            // Line counting: LF, CRLF (once), a lone CR.
            if byte == 0x0A || (byte == 0x0D && !(index + 1 < data.count && data[index + 1] == 0x0A)) { line += 1 }
            index += 1
            let isBreak = byte == 0x0A || byte == 0x0D
            if !started {
                if isBreak { continue }
                started = true
                recordLine = byteLine
            }
            switch state {
            case .start, .plain, .closed:
                if byte == 0x2C || isBreak {
                    guard endField() else { return .invalidUTF8(line: recordLine) }
                    state = .start
                    if isBreak {
                        records.append(fields)
                        lines.append(recordLine)
                        fields = []
                        started = false
                    }
                } else if state == .closed {
                    guard byte == 0x22 else { return .junkAfterQuote(line: byteLine) }
                    field.append(byte)
                    state = .quoted
                } else if state == .start && byte == 0x22 {
                    state = .quoted
                    quoteLine = byteLine
                } else {
                    field.append(byte)
                    state = .plain
                }
            case .quoted:
                if byte == 0x22 {
                    state = .closed
                } else if byte == 0x0A && field.last == 0x0D {
                    field[field.count - 1] = 0x0A  // CRLF inside quotes reads as LF
                } else {
                    field.append(byte)
                }
            }
        }
        if state == .quoted { return .unterminatedQuote(line: quoteLine) }
        if started {
            guard endField() else { return .invalidUTF8(line: recordLine) }
            records.append(fields)
            lines.append(recordLine)
        }
        return .records(records, lines: lines)
    }

    func read(_ input: [UInt8], bufferSize: Int) throws -> Outcome {
        let path = folder.file("model.csv", input)
        let reader = try CSVReader(path: path, bufferSize: bufferSize)
        var record = CSVRawRecord()
        var records: [[[UInt8]]] = [], lines: [Int] = []
        do {
            while try reader.next(into: &record) {
                records.append((0..<record.count).map { Array(record.bytes[record.range($0)]) })
                lines.append(record.line)
            }
        } catch let error as CSVError {
            switch error {
            case .unterminatedQuote(_, let line): return .unterminatedQuote(line: line)
            case .junkAfterQuote(_, let line): return .junkAfterQuote(line: line)
            case .invalidUTF8(_, let line): return .invalidUTF8(line: line)
            default: throw error
            }
        }
        return .records(records, lines: lines)
    }

    static let pieces: [[UInt8]] = [
        Array("a".utf8), Array("bc".utf8), Array("é".utf8), [0x2C], [0x2C], [0x22], [0x22], [0x0A], [0x0A],
        [0x0D, 0x0A], [0x0D, 0x0A], [0x0D], [0x20], Array("plain,line,of,fields\r\n".utf8),
        Array("x,\"q,\"\"uoted\"\"\",y\n".utf8), [0xFF],
    ]
    static let file = Gen.int(in: 0..<pieces.count).array(of: 0...30).map { $0.flatMap { pieces[$0] } }

    @Test func readerAgreesWithTheRulesAtEveryBufferSize() async throws {
        await propertyCheck(count: 400, input: Self.file, Gen.int(in: 4...24)) { bytes, bufferSize throws in
            let expected = Self.model(bytes)
            let small = try read(bytes, bufferSize: bufferSize), large = try read(bytes, bufferSize: 1 << 16)
            #expect(small == expected, "\(bytes)")
            #expect(large == expected, "\(bytes)")
        }
    }

    @Test func aByteOrderMarkIsSkippedBeforeAPlainLine() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("id,name\r\np1,Ana\n".utf8)
        #expect(
            try read(bytes, bufferSize: 1 << 16)
                == .records(
                    [[Array("id".utf8), Array("name".utf8)], [Array("p1".utf8), Array("Ana".utf8)]], lines: [1, 2]))
    }
}
