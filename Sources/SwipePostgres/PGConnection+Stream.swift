import CLibPQ
import SwipeStore

#if canImport(Glibc)
    import Glibc
#endif

extension PGConnection {
    /// Runs `sql` with `arguments` and calls `body` with each row as it
    /// arrives (libpq's single-row mode), so memory holds one row however
    /// many the statement returns. Rows come in text format; arguments are
    /// sent as text, so `sql` casts its parameters (`$1::int`). When `body`
    /// throws, the statement is cancelled and its remaining rows dropped.
    public func streamRows(_ sql: String, _ arguments: [PostgresValue], _ body: (PostgresStoredRow) throws -> Void)
        throws
    {
        var texts: [String?] = []
        for value in arguments {
            switch value {
            case .null: texts.append(nil)
            case .integer(let v): texts.append(String(v))
            case .real(let v):
                texts.append(v.isNaN ? "NaN" : v.isInfinite ? (v > 0 ? "Infinity" : "-Infinity") : "\(v)")
            case .text(let v):
                guard !v.utf8.contains(0) else {
                    throw clientError(
                        "a text argument holds a NUL character, which PostgreSQL cannot take",
                        sql: sql, arguments: arguments)
                }
                texts.append(v)
            case .boolean(let v): texts.append(v ? "t" : "f")
            case .bytes(let v): texts.append("\\x" + PostgresValue.hex(v))
            }
        }
        let copies: [UnsafeMutablePointer<CChar>?] = texts.map { $0.flatMap { strdup($0) } }
        defer { copies.forEach { free($0) } }
        let pointers: [UnsafePointer<CChar>?] = copies.map { $0.map { UnsafePointer($0) } }
        dropReadAheadAnswer()
        let sent = pointers.withUnsafeBufferPointer { values in
            PQsendQueryParams(handle, sql, Int32(values.count), nil, values.baseAddress, nil, nil, 0)
        }
        guard sent == 1 else { throw error(from: nil, sql: sql, arguments: arguments) }
        PQsetSingleRowMode(handle)
        var failure: (any Error)?
        while let result = PQgetResult(handle) {
            defer { PQclear(result) }
            if failure != nil { continue }  // draining after a cancel
            switch PQresultStatus(result) {
            case PGRES_SINGLE_TUPLE:
                do {
                    try body(PostgresStoredRow(handle: result))
                } catch {
                    failure = error
                    _ = try? canceller().cancel()
                }
            case PGRES_TUPLES_OK, PGRES_COMMAND_OK:
                break
            default:
                failure = self.error(from: result, sql: sql, arguments: arguments)
            }
        }
        if let failure { throw failure }
        if !isConnected { throw error(from: nil, sql: sql, arguments: arguments) }
    }
}

/// One row of a streamed result (`PGConnection.streamRows`), read in place
/// in text format: the `StoredRow` that `forEachProfileRow` hands out, valid
/// only inside the callback.
public struct PostgresStoredRow: StoredRow {
    let handle: OpaquePointer

    public func isNull(_ column: Int32) -> Bool { PQgetisnull(handle, 0, column) == 1 }

    public func bytes(_ column: Int32) -> UnsafeBufferPointer<UInt8>? {
        guard !isNull(column), let start = PQgetvalue(handle, 0, column) else { return nil }
        return UnsafeBufferPointer(
            start: UnsafeRawPointer(start).assumingMemoryBound(to: UInt8.self),
            count: Int(PQgetlength(handle, 0, column)))
    }

    public func text(_ column: Int32) -> String { bytes(column).map { String(decoding: $0, as: UTF8.self) } ?? "" }
    public func optionalText(_ column: Int32) -> String? { bytes(column).map { String(decoding: $0, as: UTF8.self) } }
    public func int(_ column: Int32) -> Int { Int(text(column)) ?? 0 }

    public func double(_ column: Int32) -> Double {
        switch text(column) {
        case "NaN": .nan
        case "Infinity": .infinity
        case "-Infinity": -.infinity
        case let text: Double(text) ?? 0
        }
    }
}
