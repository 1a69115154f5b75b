import Foundation
import SwipeCSV
import SwipeSQLite
import SwipeServer
import SwipeStore
import SwipeTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `swipe link` and `swipe serve` run as a person would run them.
@Suite final class ServeCommandTests {
    let temporary = TemporaryFolder("swipe-serve-e2e")
    var db: String { temporary.path + "/serve.sqlite" }

    init() throws {
        let csv = temporary.file("p.csv", "id,name,age\na,Ana,30\nb,Ben,31\n")
        let result = try SwipeBinary.run(["import", "--db", db, csv, "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
    }

    func viewer(of link: String) throws -> String {
        let token = String(try #require(link.split(separator: "=", maxSplits: 1).last))
        let store = try SQLiteStore(path: db, create: false)
        let secret = try #require(try store.accessSecret(create: false))
        let generation = try store.signInGeneration(viewer: AccessTokens.claimedViewer(in: token) ?? "")
        return try AccessTokens(secret: secret).verify(token, generation: generation).viewer
    }

    @Test func linkPrintsOneSignedLinkPerViewerWithOneSecret() throws {
        let first = try SwipeBinary.run(["link", "--db", db, "--as", "a", "--base", "http://example.test:9000/"])
        #expect(first.status == 0, "\(first.stderr)")
        let line = first.stdout.trimmingCharacters(in: .newlines)
        #expect(first.stdout.filter { $0 == "\n" }.count == 1)
        #expect(line.hasPrefix("http://example.test:9000/?token=v1."))
        #expect(first.stderr.contains("acts as a until"))
        let second = try SwipeBinary.run(["link", "--db", db, "--as", "b", "--hours", "0.5"])
        #expect(second.stdout.hasPrefix("http://127.0.0.1:8080/?token="))
        // The secret made by the first link signs the second: both verify, each as its own viewer.
        #expect(try viewer(of: line) == "a")
        #expect(try viewer(of: second.stdout.trimmingCharacters(in: .newlines)) == "b")
    }

    @Test(arguments: [
        (["link", "--as", "nobody"], "not a profile"),
        (["link"], "--as PROFILE_ID"),
        (["link", "--as", "a", "--hours", "0"], "--hours"),
        // A link that expires before it can be opened (issue 36, defect 9): a minute at least.
        (["link", "--as", "a", "--hours", "1e-9"], "--hours 1e-09 is out of range: a link works for one minute"),
        (["link", "--as", "a", "--hours", "0.016"], "--hours 0.016 is out of range"),
        (["link", "--as", "a", "--base", "ftp://x"], "--base"),
        (["serve", "--port", "70000"], "--port"),
    ])
    func mistakesAreUsageErrors(arguments: [String], message: String) throws {
        let result = try SwipeBinary.run(arguments + ["--db", db])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    /// `swipe serve --port 0` in the background, its output in files.
    final class Served {
        let process = Process()
        let out: String
        let err: String
        var port = 0

        /// `limits`: `prlimit` options to run it under (e.g. `--nofile=256`).
        init(_ arguments: [String], folder: String, limits: [String] = []) throws {
            out = folder + "/serve.out"
            err = folder + "/serve.err"
            FileManager.default.createFile(atPath: out, contents: nil)
            FileManager.default.createFile(atPath: err, contents: nil)
            if limits.isEmpty {
                process.executableURL = SwipeBinary.url
                process.arguments = arguments
            } else {
                process.executableURL = URL(fileURLWithPath: "/usr/bin/prlimit")
                process.arguments = limits + ["--", SwipeBinary.url.path] + arguments
            }
            process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
            try process.run()
        }

        var stdout: String { (try? String(contentsOfFile: out, encoding: .utf8)) ?? "" }
        var stderr: String { (try? String(contentsOfFile: err, encoding: .utf8)) ?? "" }

        /// Waits (60 s at most) for the line naming the bound port.
        func waitUntilServing() throws {
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline, process.isRunning {
                let text = stdout
                if let start = text.range(of: "serving on all interfaces, port "),
                    let port = Int(text[start.upperBound...].prefix { $0.isNumber })
                {
                    self.port = port
                    return
                }
                if let start = text.range(of: "serving http://") {
                    let hostAndPort = text[start.upperBound...].prefix { $0 != "/" }
                    if let colon = hostAndPort.lastIndex(of: ":"),
                        let port = Int(hostAndPort[hostAndPort.index(after: colon)...])
                    {
                        self.port = port
                        return
                    }
                }
                usleep(10_000)
            }
            throw ServeFailed(output: stdout + stderr)
        }

        /// SIGTERM, then the exit status (`within` seconds at most).
        func stop(within seconds: TimeInterval = 60) -> Int32? {
            process.terminate()
            let deadline = Date().addingTimeInterval(seconds)
            while process.isRunning, Date() < deadline { usleep(10_000) }
            return process.isRunning ? nil : process.terminationStatus
        }
    }

    struct ServeFailed: Error { var output: String }

    static func get(_ url: String) async throws -> (status: Int, body: String) {
        let (data, response) = try await URLSession.shared.data(from: URL(string: url)!)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    @Test func serveAnswers401WithoutALinkThePageWithOneAndStopsOnSIGTERM() async throws {
        let served = try Served(["serve", "--db", db, "--port", "0"], folder: temporary.path)
        try served.waitUntilServing()
        #expect(!served.stderr.contains("warning"), "no warning on loopback: \(served.stderr)")
        let base = "http://127.0.0.1:\(served.port)"
        let refused = try await Self.get(base + "/")
        #expect(refused.status == 401)
        #expect(refused.body.contains("swipe link"))
        let link = try SwipeBinary.run(["link", "--db", db, "--as", "a", "--base", base])
        let page = try await Self.get(link.stdout.trimmingCharacters(in: .newlines))
        #expect(page.status == 200)
        #expect(page.body.contains("<title>swipe</title>"))
        #expect(served.stop() == 0)
        let token = try #require(link.stdout.split(separator: "=").last).trimmingCharacters(in: .newlines)
        #expect(!served.stderr.contains(token), "a token in the log")
    }

    @Test func serveWarnsWhenItListensBeyondLoopback() throws {
        let served = try Served(["serve", "--db", db, "--port", "0", "--host", "0.0.0.0"], folder: temporary.path)
        try served.waitUntilServing()
        #expect(served.stderr.contains("warning: listening on 0.0.0.0"))
        // A wildcard bind is no address for a browser: the suggested link base is loopback.
        #expect(served.stdout.contains("--base http://127.0.0.1:\(served.port)"), "\(served.stdout)")
        #expect(!served.stdout.contains("http://0.0.0.0"), "a wildcard is never printed as a link")
        #expect(
            served.stdout.contains("serving on all interfaces, port \(served.port) (http://127.0.0.1:\(served.port)/)"))
        #expect(served.stop() == 0)
    }

    /// A port in use is named, with the option that picks another (issue 36,
    /// defect 9), not the socket call's own words.
    @Test func aPortInUseIsNamedWithTheHintPort() throws {
        let first = try Served(["serve", "--db", db, "--port", "0"], folder: temporary.path)
        try first.waitUntilServing()
        let second = try SwipeBinary.run(["serve", "--db", db, "--port", String(first.port)])
        #expect(second.status != 0)
        #expect(second.stderr.contains("port \(first.port) on 127.0.0.1 is already in use"), "\(second.stderr)")
        #expect(second.stderr.contains("--port"))
        #expect(!second.stderr.contains("bind(descriptor"))
        #expect(first.stop() == 0)
    }

    @Test func linksUseThePublicURLBehindAProxy() throws {
        let served = try Served(
            ["serve", "--db", db, "--port", "0", "--public-url", "https://swipe.example.org/"],
            folder: temporary.path)
        try served.waitUntilServing()
        #expect(served.stdout.contains("--base https://swipe.example.org\n"), "\(served.stdout)")
        #expect(served.stop() == 0)
        let refused = try SwipeBinary.run(["serve", "--db", db, "--public-url", "ftp://x"])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("--public-url"))
    }

    /// `swipe link --revoke --as V` and `--revoke-all`: earlier links stop working.
    @Test func revokedLinksNoLongerVerify() throws {
        let first = try SwipeBinary.run(["link", "--db", db, "--as", "a"]).stdout.trimmingCharacters(in: .newlines)
        let firstB = try SwipeBinary.run(["link", "--db", db, "--as", "b"]).stdout.trimmingCharacters(in: .newlines)
        #expect(try viewer(of: first) == "a")
        let revoked = try SwipeBinary.run(["link", "--db", db, "--as", "a", "--revoke"])
        #expect(revoked.status == 0, "\(revoked.stderr)")
        #expect(revoked.stdout.isEmpty)
        #expect(throws: AccessTokenError.badSignature) { try self.viewer(of: first) }
        #expect(try viewer(of: firstB) == "b", "revoking a did not touch b")
        let all = try SwipeBinary.run(["link", "--db", db, "--revoke-all"])
        #expect(all.status == 0, "\(all.stderr)")
        #expect(throws: AccessTokenError.badSignature) { try self.viewer(of: firstB) }
    }

    /// Documentation/Serve.md: SIGTERM closes every socket (a close frame, then the TCP
    /// connection within 2 s) and exits within 5 s, whatever the clients do.
    @Test func sigtermStopsWithin5sWhateverTheClientsDo() throws {
        let served = try Served(["serve", "--db", db, "--port", "0"], folder: temporary.path)
        try served.waitUntilServing()
        let link = try SwipeBinary.run(["link", "--db", db, "--as", "a"])
        let token = try #require(link.stdout.split(separator: "=").last).trimmingCharacters(in: .newlines)
        let idle = try RawConnection(port: served.port, timeout: 10)
        let half = try RawConnection(port: served.port, timeout: 10)
        try half.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        // A WebSocket client that reads but never answers the close frame.
        let socket = try RawConnection(port: served.port, timeout: 10)
        try socket.send(
            "GET /ws?token=\(token) HTTP/1.1\r\nHost: 127.0.0.1:\(served.port)\r\nConnection: Upgrade\r\n"
                + "Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
        )
        var received: [UInt8] = []
        // The 101 and the hello frame ({"event":"hello"...}).
        while !String(decoding: received, as: UTF8.self).contains("hello") {
            guard case .bytes(let bytes) = socket.read() else { Issue.record("no hello"); return }
            received += bytes
        }
        #expect(String(decoding: received, as: UTF8.self).hasPrefix("HTTP/1.1 101"))
        let signalled = Date()
        let status = served.stop(within: 30)
        let took = Date().timeIntervalSince(signalled)
        #expect(status == 0, "still running \(took) s after SIGTERM")
        #expect(took < 5, "exited \(took) s after SIGTERM")
        let rest = socket.readUntilClosed()
        #expect(rest != nil, "the socket was never closed")
        // A close frame (opcode 8, FIN set: 0x88) came before the end.
        #expect(rest?.first == 0x88, "no close frame before the connection closed")
        #expect(idle.readUntilClosed() != nil)
        #expect(half.readUntilClosed() != nil)
    }

    /// With 256 file descriptors, 300 idle connections that never send a
    /// request do not keep a real request from being answered.
    @Test func idleConnectionsDoNotStarveRealRequests() throws {
        let served = try Served(
            ["serve", "--db", db, "--port", "0"], folder: temporary.path,
            limits: ["--nofile=256:256"])
        try served.waitUntilServing()
        defer { _ = served.stop() }
        var idle: [RawConnection] = []
        for _ in 0..<300 { idle.append(try RawConnection(port: served.port, timeout: 10)) }
        let real = try RawConnection(port: served.port, timeout: 10)
        try real.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let answer = real.readUntilClosed().map { String(decoding: $0, as: UTF8.self) } ?? "(no answer in 10 s)"
        #expect(answer.hasPrefix("HTTP/1.1 401"), "\(answer.prefix(80))")
        #expect(idle.count == 300)
    }
}
