import SwipeCSV
import SwipeStore
extension Connection {
    /// Runs `body` in a write transaction (`BEGIN IMMEDIATE`, so the write lock
    /// is taken up front and a busy database fails here, not half-way), commits
    /// when it returns and rolls back when it throws.
    public func writeTransaction<T>(_ body: () throws -> T) throws -> T {
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
