import SwipePostgres
import SwipeSQLite
import SwipeStore
import SwipeTestSupport

@testable import SwipeServer

extension TestStores {
    /// A server's backend over the test's database, opened apart from the
    /// stores the test writes through: what such a store writes reaches the
    /// server only through the database, as another process's writes do.
    func serverBackend(_ kind: TestBackend) throws -> DatabaseServerBackend {
        let location = try location(kind)
        switch kind {
        case .sqlite:
            return try DatabaseServerBackend(writes: .oneAtATime, connections: 2) {
                try SQLiteStore(path: location, create: false)
            }
        case .postgres:
            return try DatabaseServerBackend(
                writes: .concurrent, connections: 2, relay: PostgresMatchRelay(uri: location)
            ) { try PostgresStore(uri: location, create: false) }
        }
    }
}
