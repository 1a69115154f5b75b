/// How a `ViewerScope` reaches its database: one it holds (the REPL), or
/// one borrowed per call (`swipe serve`'s pool, its writes through a queue
/// that commits them in groups). Reads and writes are told apart so that a
/// server can route writes (a feed fetch moves cursors: a write) on their own.
public protocol DatabaseAccess {
    /// Runs `body` on a database for reading.
    func read<T>(_ body: (any SwipeDatabase) throws -> T) throws -> T
    /// Runs `body` on a database for writing; it may run on another thread
    /// (a write queue), and returns once its writes are durable.
    func write<T>(_ body: @escaping (any SwipeDatabase) throws -> T) throws -> T
}

/// One database, used for every call: the REPL's.
public struct DirectAccess: DatabaseAccess {
    public let database: any SwipeDatabase

    public init(_ database: any SwipeDatabase) {
        self.database = database
    }

    public func read<T>(_ body: (any SwipeDatabase) throws -> T) throws -> T { try body(database) }
    public func write<T>(_ body: @escaping (any SwipeDatabase) throws -> T) throws -> T { try body(database) }
}
