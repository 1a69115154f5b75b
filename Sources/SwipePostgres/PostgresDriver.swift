import SwipeStore

/// A PostgreSQL database as the executable's backend: writers side by side,
/// matches relayed between serving processes with LISTEN/NOTIFY.
public struct PostgresDriver: DatabaseDriver {
    public let uri: String
    public let durability: Durability

    public init(uri: String, durability: Durability = .normal) {
        self.uri = uri
        self.durability = durability
    }

    public var location: String { PostgresURI.redacted(uri) }

    var synchronous: PostgresStore.Synchronous {
        switch durability {
        case .normal: .normal
        case .full: .full
        }
    }

    public func openCreating() throws -> any SwipeDatabase {
        try PostgresStore(uri: uri, create: true, synchronous: synchronous)
    }

    public func openExisting() throws -> any SwipeDatabase {
        try PostgresStore(uri: uri, create: false, synchronous: synchronous)
    }

    public func openReading() throws -> any SwipeDatabase {
        try PostgresStore(uri: uri, create: false, readOnly: true, synchronous: synchronous)
    }

    public var writePolicy: WritePolicy { .concurrent }

    public func matchRelay() -> any MatchRelay { PostgresMatchRelay(uri: uri) }
}
