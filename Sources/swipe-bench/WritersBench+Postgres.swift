import SwipeStore

/// The PostgreSQL store for the writers section. Until `PostgresStore` is
/// merged there is none, and the section says so.
func openPostgresStore(uri: String) throws -> any SwipeDatabase {
    throw BenchError("PostgresStore is not in this build yet: the writers section needs it")
}
