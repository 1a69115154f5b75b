import Foundation

/// libFuzzer target for `CSVReader` (fuzz/run.sh builds it with SwipeCSV's CSVReader.swift,
/// CSVError.swift and the word-at-a-time scans it uses, ByteScan.swift and
/// JSONText.swift; under ASan, a scan reading past its buffer is caught). The input's first byte picks the buffer size (4–67
/// bytes) so records straddle refills; the rest is the file, written to
/// /dev/shm (memory) and read through the reader's real `open`/`read` path.
///
/// Checked: no crash or sanitizer report; records come in line order; an
/// error is one of the typed `CSVError`s and names a line within the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSVReader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    let bufferSize = 4 + Int(data[0]) % 64
    let path = "/dev/shm/swipe-fuzz-csv-\(getpid())"
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    precondition(fd >= 0, "cannot create \(path)")
    defer { unlink(path) }
    var written = 0
    while written < size - 1 {
        let count = write(fd, data + 1 + written, size - 1 - written)
        precondition(count > 0, "write to memfd failed")
        written += count
    }
    close(fd)
    let lines = UnsafeBufferPointer(start: data + 1, count: size - 1).count(where: { $0 == 0x0A || $0 == 0x0D }) + 1
    do {
        let reader = try CSVReader(path: path, bufferSize: bufferSize)
        var lastLine = 0
        while let record = try reader.next() {
            precondition(record.line >= lastLine && record.line <= lines, "record line \(record.line) out of order")
            precondition(!record.fields.isEmpty, "a record with no fields")
            lastLine = record.line
        }
        precondition(reader.bytesRead == size - 1, "read \(reader.bytesRead) of \(size - 1) bytes")
    } catch let error as CSVError {
        switch error {
        case .unterminatedQuote(_, let line), .junkAfterQuote(_, let line), .invalidUTF8(_, let line):
            precondition(line >= 1 && line <= lines, "error line \(line) outside the input")
        case .notFound, .unreadable:
            preconditionFailure("the in-memory file could not be read: \(error)")
        }
    } catch {
        preconditionFailure("untyped error \(error)")
    }
    return 0
}
