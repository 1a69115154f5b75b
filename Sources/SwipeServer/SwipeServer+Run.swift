import Foundation
import Hummingbird
import Logging
import NIOPosix

extension SwipeServer {
    /// Threads for store calls. More than the cores: on SQLite the writes
    /// queue on one lock, and a thread waiting there must not hold up a
    /// read (`deck`, `matches`) that could run beside the writer. Give the
    /// backend as many connections (`DatabaseServerBackend`): no call then
    /// waits for one.
    public static var threadCount: Int { max(8, 4 * ProcessInfo.processInfo.activeProcessorCount) }

    /// Serves until SIGINT or SIGTERM, then closes every socket (1000,
    /// done by the WebSocket handler) and returns. Store calls run on a pool of its own threads;
    /// the log (one line per socket, never a token) goes to `logger`, by
    /// default standard error.
    public static func run(
        backend: DatabaseServerBackend, configuration: ServeConfiguration, logger: Logger? = nil,
        onRunning: @escaping @Sendable (Int) async -> Void
    ) async throws {
        let logger =
            logger
            ?? {
                var logger = Logger(label: "swipe.serve") { StreamLogHandler.standardError(label: $0) }
                logger.logLevel = .info
                return logger
            }()
        let pool = NIOThreadPool(numberOfThreads: threadCount)
        pool.start()
        do {
            let server = try await SwipeServer(
                backend: backend, configuration: configuration, logger: logger, threadPool: pool)
            do {
                try await server.application(onRunning: onRunning)
                    .runService(gracefulShutdownSignals: [.sigterm, .sigint])
            } catch {
                await server.stop()
                throw error
            }
            await server.stop()
        } catch {
            try? await pool.shutdownGracefully()
            throw error
        }
        try await pool.shutdownGracefully()
    }
}
