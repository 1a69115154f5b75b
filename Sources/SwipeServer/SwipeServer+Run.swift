import Foundation
import Hummingbird
import Logging
import NIOPosix

extension SwipeServer {
    /// Serves until SIGINT or SIGTERM, then closes every socket (1000,
    /// done by the WebSocket handler) and returns. Store calls run on a pool of its own threads;
    /// the log (one line per socket, never a token) goes to `logger`, by
    /// default standard error.
    public static func run(backend: any ServerBackend, configuration: ServeConfiguration, logger: Logger? = nil,
                           onRunning: @escaping @Sendable (Int) async -> Void) async throws {
        let logger = logger ?? {
            var logger = Logger(label: "swipe.serve") { StreamLogHandler.standardError(label: $0) }
            logger.logLevel = .info
            return logger
        }()
        let pool = NIOThreadPool(numberOfThreads: max(4, 2 * ProcessInfo.processInfo.activeProcessorCount))
        pool.start()
        do {
            let server = try await SwipeServer(
                backend: backend, configuration: configuration, logger: logger, threadPool: pool)
            try await server.application(onRunning: onRunning)
                .runService(gracefulShutdownSignals: [.sigterm, .sigint])
        } catch {
            try? await pool.shutdownGracefully()
            throw error
        }
        try await pool.shutdownGracefully()
    }
}
