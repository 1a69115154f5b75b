import CLibPQ

/// The built-in type OIDs this library encodes and decodes in binary
/// (`pg_type.oid`; fixed since PostgreSQL 7.x).
enum PostgresType {
    static let bool: Oid = 16
    static let bytea: Oid = 17
    static let char: Oid = 18
    static let name: Oid = 19
    static let int8: Oid = 20
    static let int2: Oid = 21
    static let int4: Oid = 23
    static let text: Oid = 25
    static let oid: Oid = 26
    static let json: Oid = 114
    static let float4: Oid = 700
    static let float8: Oid = 701
    static let unknown: Oid = 705
    static let bpchar: Oid = 1042
    static let varchar: Oid = 1043
    static let jsonb: Oid = 3802

    /// Types whose binary form is the UTF-8 text itself.
    static func isTextual(_ type: Oid) -> Bool {
        type == text || type == varchar || type == bpchar || type == name || type == unknown || type == json
    }

    /// A name for messages.
    static func name(of type: Oid) -> String {
        switch type {
        case bool: "boolean"
        case bytea: "bytea"
        case char: "\"char\""
        case name: "name"
        case int8: "bigint"
        case int2: "smallint"
        case int4: "integer"
        case text: "text"
        case oid: "oid"
        case json: "json"
        case float4: "real"
        case float8: "double precision"
        case unknown: "unknown"
        case bpchar: "character"
        case varchar: "character varying"
        case jsonb: "jsonb"
        default: "type \(type)"
        }
    }
}
