import SwipeStore

extension SQLiteConnection {
    /// Runs `body` in a write transaction (`BEGIN IMMEDIATE`, so the write lock
    /// is taken up front and a busy database fails here, not half-way), commits
    /// when it returns and rolls back when it throws.
    ///
    /// Inside a transaction already (a batch, `SQLiteStore.writeBatch`) it is a
    /// savepoint: released when `body` returns, rolled back when it throws,
    /// and the outer transaction commits or rolls back the rest.
    public func writeTransaction<T>(_ body: () throws -> T) throws -> T {
        if isInTransaction {
            try execute("SAVEPOINT nested")
            do {
                let result = try body()
                try execute("RELEASE nested")
                return result
            } catch {
                if isInTransaction {
                    try? execute("ROLLBACK TO nested")
                    try? execute("RELEASE nested")
                }
                throw error
            }
        }
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            if isInTransaction { try? execute("ROLLBACK") }
            throw error
        }
    }
}
