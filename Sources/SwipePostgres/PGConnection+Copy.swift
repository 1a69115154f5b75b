import CLibPQ

extension PGConnection {
    /// Bulk-loads rows with `COPY … FROM STDIN` (text format, or whatever
    /// format `sql` names when `body` writes raw bytes): `body` writes rows
    /// through the writer, which sends them in 256 KiB chunks.
    ///
    /// COPY is all or nothing: a bad row (the server names its line in the
    /// error's `context`) or an error thrown by `body` (sent to the server as
    /// the reason to abort) leaves the table as it was. Returns the number of
    /// rows copied. As with psql, a bad row is reported when the copy ends:
    /// libpq reads nothing from the server while data goes out.
    @discardableResult
    public func copy(_ sql: String, _ body: (inout PGCopyWriter) throws -> Void) throws -> Int {
        dropReadAheadAnswer()
        let started = PQexec(handle, sql)
        defer { PQclear(started) }
        guard let started, PQresultStatus(started) == PGRES_COPY_IN else {
            try check(started, sql: sql, arguments: [])
            throw clientError("copy(_:_:) runs COPY … FROM STDIN only", sql: sql, arguments: [])
        }
        var writer = PGCopyWriter(connection: self)
        // A failure of `body` is the caller's; one while sending is libpq's,
        // and the server's own error, read below, explains it better.
        var bodyFailure: Error?
        var sendFailure: Error?
        do {
            try body(&writer)
        } catch let error as PGCopyWriter.SendFailure {
            sendFailure = error.error
        } catch {
            bodyFailure = error
        }
        if bodyFailure == nil && sendFailure == nil {
            do { try writer.flush() } catch let error as PGCopyWriter.SendFailure { sendFailure = error.error }
        }
        // On a failure of the body, the reason goes to the server, which
        // aborts the COPY; a broken connection has nothing left to end.
        let reason = bodyFailure.map { "the client stopped the copy: \($0)" }
        if isConnected, PQputCopyEnd(handle, reason) != 1, sendFailure == nil {
            sendFailure = error(from: nil, sql: sql, arguments: [])
        }
        var serverFailure: Error?
        var copied = 0
        while let result = PQgetResult(handle) {
            defer { PQclear(result) }
            if PQresultStatus(result) == PGRES_COMMAND_OK {
                copied = Int(String(cString: PQcmdTuples(result))) ?? 0
            } else if serverFailure == nil {
                serverFailure = error(from: result, sql: sql, arguments: [])
            }
        }
        if let bodyFailure { throw bodyFailure }
        if let failure = serverFailure ?? sendFailure { throw failure }
        if !isConnected { throw error(from: nil, sql: sql, arguments: []) }
        return copied
    }
}

/// Writes rows in COPY's text format (tab-separated, `\N` for NULL, with
/// backslash escapes), or raw bytes in the format the COPY statement named.
public struct PGCopyWriter {
    private unowned let connection: PGConnection
    var buffer: [UInt8] = []
    private var fieldsInRow = 0
    static let chunk = 256 * 1024

    init(connection: PGConnection) {
        self.connection = connection
        buffer.reserveCapacity(Self.chunk + 4096)
    }

    /// One row of values, in the COPY statement's column order.
    public mutating func row(_ values: [PostgresValue]) throws {
        for value in values { field(value) }
        try endRow()
    }

    /// Variadic form of `row(_:)`.
    public mutating func row(_ values: PostgresValue...) throws { try row(values) }

    /// One field of the current row.
    public mutating func field(_ value: PostgresValue) {
        if fieldsInRow > 0 { buffer.append(UInt8(ascii: "\t")) }
        fieldsInRow += 1
        switch value {
        case .null: buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "N")])
        case .integer(let v): buffer.append(contentsOf: String(v).utf8)
        case .real(let v):
            buffer.append(
                contentsOf: (v.isNaN ? "NaN" : v.isInfinite ? (v < 0 ? "-Infinity" : "Infinity") : String(v)).utf8)
        case .text(var v): v.withUTF8 { escape($0) }
        case .boolean(let v): buffer.append(v ? UInt8(ascii: "t") : UInt8(ascii: "f"))
        case .bytes(let v): buffer.append(contentsOf: ("\\\\x" + PostgresValue.hex(v)).utf8)
        }
    }

    /// Text given as UTF-8 bytes (no String made), escaped like `field(.text)`.
    public mutating func field(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        if fieldsInRow > 0 { buffer.append(UInt8(ascii: "\t")) }
        fieldsInRow += 1
        escape(bytes)
    }

    /// Ends the current row.
    public mutating func endRow() throws {
        buffer.append(UInt8(ascii: "\n"))
        fieldsInRow = 0
        if buffer.count >= Self.chunk { try flush() }
    }

    /// Bytes sent as they are (a CSV file for `COPY … (FORMAT csv)`).
    public mutating func write(raw bytes: UnsafeRawBufferPointer) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.chunk { try flush() }
    }

    /// libpq refused data: the connection broke, or the server ended the COPY.
    struct SendFailure: Error { var error: PostgresError }

    /// Sends what is buffered.
    mutating func flush() throws {
        guard !buffer.isEmpty else { return }
        let sent = buffer.withUnsafeBytes { bytes in
            PQputCopyData(connection.handle, bytes.baseAddress!.assumingMemoryBound(to: CChar.self), Int32(bytes.count))
        }
        buffer.removeAll(keepingCapacity: true)
        if sent != 1 { throw SendFailure(error: connection.error(from: nil, sql: nil, arguments: [])) }
    }

    /// COPY's text format gives backslash, tab, newline and carriage return
    /// a meaning: escape them, copy every other byte as it is.
    private mutating func escape(_ bytes: UnsafeBufferPointer<UInt8>) {
        var start = 0
        for (index, byte) in bytes.enumerated() {
            let escaped: UInt8
            switch byte {
            case UInt8(ascii: "\\"): escaped = UInt8(ascii: "\\")
            case UInt8(ascii: "\t"): escaped = UInt8(ascii: "t")
            case UInt8(ascii: "\n"): escaped = UInt8(ascii: "n")
            case UInt8(ascii: "\r"): escaped = UInt8(ascii: "r")
            default: continue
            }
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
            buffer.append(UInt8(ascii: "\\"))
            buffer.append(escaped)
            start = index + 1
        }
        buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
    }
}
