import SwipeServer

extension ServeConfiguration {
    /// `swipe serve`'s configuration on a free port, but waiting up to 10
    /// minutes for a request head instead of 10 seconds.
    ///
    /// HummingbirdTesting's live client opens its one HTTP connection when
    /// the server starts and sends its first request whenever the test
    /// reaches it: after the WebSocket exchanges before it, which on a loaded
    /// CI machine (the whole suite in parallel on 2 cores) took more than
    /// 10 seconds. The server's `ConnectionGate` then closed that silent
    /// connection, as it should, and the test's `/metrics` scrape failed with
    /// "I/O on closed channel". The gate's own tests set their timeouts.
    static func testing(commandsPerSecond: Double = 100, commandBurst: Double = 200) -> ServeConfiguration {
        var configuration = ServeConfiguration(
            port: 0, commandsPerSecond: commandsPerSecond, commandBurst: commandBurst)
        configuration.headerTimeout = .seconds(600)
        return configuration
    }
}
