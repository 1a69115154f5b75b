import SwipePostgres
import SwipeStore

/// The PostgreSQL store for the writers section, opened as `swipe import`
/// opens it (an empty database gets the schema).
func openPostgresStore(uri: String) throws -> any SwipeDatabase {
    try PostgresStore(uri: uri, create: true)
}
