import CLibPQ

/// Asks the server to cancel whatever a connection is running, from another
/// thread (a Ctrl-C handler, a watchdog): the statement then fails with
/// SQLSTATE 57014 (query_canceled) and its transaction can be rolled back.
/// libpq documents `PQcancel` as safe to call from any thread, and from a
/// signal handler.
public final class PGCanceller: @unchecked Sendable {
    private let handle: OpaquePointer

    init?(connection: PGConnection) {
        guard let handle = PQgetCancel(connection.handle) else { return nil }
        self.handle = handle
    }

    deinit { PQfreeCancel(handle) }

    /// Sends the cancel request; true when the server received it (it may
    /// still arrive after the statement finished, which is harmless).
    @discardableResult
    public func cancel() -> Bool {
        var message = [CChar](repeating: 0, count: 256)
        return PQcancel(handle, &message, Int32(message.count)) == 1
    }
}

extension PGConnection {
    /// A canceller for the current session (make a new one after `reconnect()`).
    public func canceller() throws -> PGCanceller {
        guard let canceller = PGCanceller(connection: self) else {
            throw clientError("cannot make a cancel request: the connection is not open", sql: nil, arguments: [])
        }
        return canceller
    }
}
