import SwipeStore

/// A SQLite file as the executable's backend: one writer per file (a
/// serving process queues its writes), a checkpointer thread while served,
/// no relay (one process serves a file).
public struct SQLiteDriver: DatabaseDriver {
    public let path: String
    public let durability: Durability

    public init(path: String, durability: Durability = .normal) {
        self.path = path
        self.durability = durability
    }

    public var location: String { path }

    var synchronous: SQLiteConnection.Synchronous {
        switch durability {
        case .normal: .normal
        case .full: .full
        }
    }

    public func openCreating() throws -> any SwipeDatabase { try SQLiteStore(path: path, synchronous: synchronous) }

    public func openExisting() throws -> any SwipeDatabase {
        try SQLiteStore(path: path, synchronous: synchronous, create: false)
    }

    public func openReading() throws -> any SwipeDatabase {
        try SQLiteStore(path: path, synchronous: synchronous, create: false, readOnly: true)
    }

    public var writePolicy: WritePolicy { .oneAtATime }

    /// Checkpoints on a thread of their own, not inside the group commit
    /// every queued write is waiting for; it lives as long as the process.
    /// The file is opened first so that a missing or foreign one is worded
    /// as for every other command.
    public func startMaintenance() throws -> (@Sendable (any SwipeDatabase) -> Void)? {
        _ = try openExisting()
        let checkpointer = try BackgroundCheckpointer(path: path)
        return { store in
            if let store = store as? SQLiteStore { checkpointer.attach(store.connection) }
        }
    }
}
