import CLibPQ

/// The encoded arguments of one execution, in one byte buffer: each value in
/// the binary form of its parameter's type where this library knows it
/// (int2/int4/int8, float8, bool, bytea, text-like), otherwise as text for
/// the server to parse as it would a literal (numeric, timestamptz, jsonb …).
struct ParameterBuffer {
    struct Refusal: Error { var text: String }

    private var bytes: [UInt8] = []
    /// Per parameter: nil for NULL, else (offset, length) into `bytes`.
    private var slices: [(offset: Int, count: Int)?] = []
    private var formats: [Int32] = []

    mutating func append(_ value: PostgresValue, as type: Oid) throws {
        switch value {
        case .null:
            slices.append(nil)
            formats.append(0)
        case .integer(let v):
            if type == PostgresType.int8 {
                binary(v.bigEndian)
            } else if type == PostgresType.int4, let small = Int32(exactly: v) {
                binary(small.bigEndian)
            } else if type == PostgresType.int2, let small = Int16(exactly: v) {
                binary(small.bigEndian)
            } else {
                try text(String(v))
            }
        case .real(let v):
            if type == PostgresType.float8 {
                binary(v.bitPattern.bigEndian)
            } else {
                try text(v.isNaN ? "NaN" : v.isInfinite ? (v < 0 ? "-Infinity" : "Infinity") : String(v))
            }
        case .text(let v):
            if PostgresType.isTextual(type) {
                // Sent by length: the server, not a C string, decides about a NUL.
                raw(Array(v.utf8))
            } else {
                try text(v)
            }
        case .boolean(let v):
            if type == PostgresType.bool { raw([v ? 1 : 0]) } else { try text(v ? "true" : "false") }
        case .bytes(let v):
            if type == PostgresType.bytea { raw(v) } else { try text("\\x" + PostgresValue.hex(v)) }
        }
    }

    private mutating func binary<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value) { raw(Array($0)) }
    }

    private mutating func raw(_ value: [UInt8]) {
        slices.append((bytes.count, value.count))
        bytes.append(contentsOf: value)
        formats.append(1)
    }

    /// Text format is read up to a NUL, so a NUL inside would silently cut
    /// the value: refuse it instead.
    private mutating func text(_ value: String) throws {
        let utf8 = Array(value.utf8)
        if utf8.contains(0) {
            throw Refusal(text: "a text argument holds a NUL character, which PostgreSQL cannot take")
        }
        slices.append((bytes.count, utf8.count))
        bytes.append(contentsOf: utf8)
        bytes.append(0)
        formats.append(0)
    }

    /// Calls `body` with libpq's three parallel arrays.
    func withParameters<R>(
        _ body: (UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?) -> R
    ) -> R {
        // A non-empty buffer, so an empty value still gets a non-nil pointer
        // (nil means NULL to libpq).
        let storage = bytes.isEmpty ? [0] : bytes
        return storage.withUnsafeBytes { buffer in
            let base = buffer.baseAddress!.assumingMemoryBound(to: CChar.self)
            let values: [UnsafePointer<CChar>?] = slices.map { slice in slice.map { base + $0.offset } }
            let lengths = slices.map { Int32($0?.count ?? 0) }
            return values.withUnsafeBufferPointer { v in
                lengths.withUnsafeBufferPointer { l in
                    formats.withUnsafeBufferPointer { f in body(v.baseAddress, l.baseAddress, f.baseAddress) }
                }
            }
        }
    }
}
