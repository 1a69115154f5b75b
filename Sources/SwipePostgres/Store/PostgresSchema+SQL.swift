extension PostgresSchema {
    /// The text of schema.postgres.sql, byte for byte: SwiftPM embeds the
    /// file (`.embedInCode`), so the binary cannot drift from it.
    static let sql = String(decoding: PackageResources.schema_postgres_sql, as: UTF8.self)
}
