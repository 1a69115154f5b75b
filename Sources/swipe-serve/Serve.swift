import ArgumentParser
import Foundation
import SwipeCommandLine
import SwipeServer
import SwipeSession
import SwipeStore

/// `swipe serve`: the deck in a browser (README, "The deck in a browser").
/// The library does the serving; this wires the database, the address, the
/// log and the terminal.
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: ServeCommands.serveAbstract,
        discussion: """
            Viewers sign in with a link from `swipe link --as PROFILE_ID`; without one every page \
            and socket answers 401. Binds 127.0.0.1 unless --host says otherwise. Ctrl-C (or SIGTERM) \
            closes every socket and stops.
            """)

    @OptionGroup var database: DatabaseOptions
    @Option(
        help: ArgumentHelp(
            "The address to listen on; anything but loopback is reachable from other machines.",
            valueName: "ADDRESS"))
    var host = "127.0.0.1"
    @Option(help: ArgumentHelp("The TCP port (0 picks a free one and prints it).", valueName: "PORT"))
    var port = 8080
    @Option(
        name: .customLong("public-url"),
        help: ArgumentHelp(
            "Where browsers reach this server behind a reverse proxy (https://… makes the sign-in cookie Secure).",
            valueName: "URL"))
    var publicURL: String?

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0…65535, not \(port)") }
        if let publicURL {
            guard let url = URL(string: publicURL), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
                url.host != nil, url.path.isEmpty || url.path == "/"
            else {
                throw ValidationError("--public-url must be http(s)://HOST[:PORT], as in https://swipe.example.org")
            }
        }
    }

    /// The base of printed links: `--public-url`, else the bound address;
    /// a wildcard bind (0.0.0.0, ::) is no address to give a browser, so
    /// it becomes loopback.
    static func linkBase(host: String, port: Int, publicURL: String?) -> String {
        if var publicURL {
            while publicURL.hasSuffix("/") { publicURL.removeLast() }
            return publicURL
        }
        let shown = isWildcard(host) ? "127.0.0.1" : host
        return "http://\(shown.contains(":") ? "[\(shown)]" : shown):\(port)"
    }

    /// Whether `host` binds every interface: no address to give a browser.
    static func isWildcard(_ host: String) -> Bool {
        ["0.0.0.0", "::", "[::]", "0:0:0:0:0:0:0:0", ""].contains(host)
    }

    /// What the server says once it listens: the URL it serves at, or for
    /// a wildcard bind that it listens on every interface and where this
    /// machine reaches it (a wildcard is never printed as a link).
    static func listeningLine(host: String, port: Int, publicURL: String?) -> String {
        let base = linkBase(host: host, port: port, publicURL: publicURL)
        let listening =
            isWildcard(host)
            ? "on all interfaces, port \(port) (\(base)/)"
            : "http://\(host.contains(":") ? "[\(host)]" : host):\(port)/"
        return "swipe: serving \(listening) (Ctrl-C stops); a sign-in link: swipe link --as PROFILE_ID --base \(base)"
    }

    /// A bind refused because the port is taken, said with the port and
    /// what to do instead of the socket call's own words.
    static func explainBind(_ error: any Error, host: String, port: Int) -> any Error {
        let text = String(describing: error)
        guard text.contains("Address already in use") || text.contains("errno: 98") else { return error }
        return ValidationError(
            "port \(port) on \(host.isEmpty ? "all interfaces" : host) is already in use (another program, "
                + "perhaps another swipe serve, listens there): choose another with --port N, or --port 0 for a free one"
        )
    }

    /// Synchronous, like every other command: the REPL needs the main
    /// thread (its SIGWINCH handling interrupts a read there), so the root
    /// command stays synchronous and the server runs on the concurrency pool
    /// while this thread waits for it.
    func run() throws {
        let outcome = BlockingResult()
        let serve = self
        Task.detached {
            do { try await serve.serve() } catch { outcome.error = error }
            outcome.finish()
        }
        outcome.wait()
        if let error = outcome.error { throw error }
    }

    private func serve() async throws {
        var configuration = ServeConfiguration(host: host, port: port)
        configuration.publicURL = publicURL.flatMap(URL.init(string:))
        var stderr = StandardError()
        if !configuration.isLoopback {
            stderr.write(
                "swipe: warning: listening on \(TerminalText.sanitized(host)), reachable from other machines; "
                    + "anyone holding a sign-in link acts as its viewer, over plain HTTP.\n")
        }
        let backend: DatabaseServerBackend
        do {
            backend = try Self.backend(database)
        } catch {
            try ExitStatus.reporting { throw error }
            return
        }
        let host = host
        let publicURL = publicURL
        do {
            try await SwipeServer.run(backend: backend, configuration: configuration) { port in
                print(Self.listeningLine(host: host, port: port, publicURL: publicURL))
                fflush(nil)  // every stream: what was printed reaches a pipe now
            }
        } catch {
            let port = port
            try ExitStatus.reporting { throw Self.explainBind(error, host: host, port: port) }
        }
    }
}

extension Serve {
    /// The backend for `--db`, as its driver says: on PostgreSQL writers
    /// run side by side, a few connections serve every socket, and matches
    /// reach other serve processes on the same database (LISTEN/NOTIFY); on
    /// SQLite this process's writes queue and commit in groups (one writer
    /// per file) and checkpoints run on a thread of their own.
    static func backend(_ database: DatabaseOptions) throws -> DatabaseServerBackend {
        let driver = database.driver
        let maintain = try driver.startMaintenance()
        return try DatabaseServerBackend(
            writes: driver.writePolicy, connections: SwipeServer.threadCount,
            relay: driver.matchRelay()
        ) {
            let store = try driver.openExisting()
            maintain?(store)
            return store
        }
    }
}

/// Hands an async body's end (and error) to a thread that waits for it.
final class BlockingResult: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var stored: (any Error)?

    var error: (any Error)? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }

    func finish() { done.signal() }
    func wait() { done.wait() }
}
