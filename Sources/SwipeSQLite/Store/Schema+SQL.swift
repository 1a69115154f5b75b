extension Schema {
    /// The text of schema.sql, byte for byte: SwiftPM embeds the file
    /// (`.embedInCode`), so the binary cannot drift from it.
    static let sql = String(decoding: PackageResources.schema_sql, as: UTF8.self)
}
