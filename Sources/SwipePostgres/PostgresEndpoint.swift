/// Where a connection goes: what errors and descriptions name. It never holds
/// the password, so printing it cannot leak one.
public struct PostgresEndpoint: Hashable, Sendable, CustomStringConvertible {
    /// Host name or address, or the unix-socket folder (libpq's `host`).
    public var host: String
    public var port: String
    public var database: String
    public var user: String

    public init(host: String, port: String, database: String, user: String) {
        self.host = host
        self.port = port
        self.database = database
        self.user = user
    }

    /// `user@host:port/database`; a socket folder is shown as `[folder]`.
    public var description: String {
        let shownHost = host.hasPrefix("/") ? "[\(host)]" : host
        return "\(user)@\(shownHost):\(port)/\(database)"
    }
}
