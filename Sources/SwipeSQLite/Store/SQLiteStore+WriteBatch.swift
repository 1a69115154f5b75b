import SwipeStore

/// Group commit (`SwipeDatabase.writeBatch`): the jobs run in one write
/// transaction, each in its own savepoint (`SQLiteConnection.writeTransaction`
/// nests as one), so a refused job leaves nothing behind and the others go
/// on; one COMMIT makes them all durable together.
extension SQLiteStore {
    public func writeBatch(_ jobs: [() throws -> Void]) throws -> [(any Error)?] {
        try connection.writeTransaction {
            var outcomes: [(any Error)?] = []
            for job in jobs {
                do {
                    try connection.writeTransaction(job)
                    outcomes.append(nil)
                } catch {
                    // Some failures (a full disk, I/O) make SQLite roll the whole
                    // transaction back: then nothing of the batch is stored.
                    guard connection.isInTransaction else { throw error }
                    outcomes.append(error)
                }
            }
            return outcomes
        }
    }
}
