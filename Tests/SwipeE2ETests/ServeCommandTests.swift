import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwipeServer
import SwipeStore
import SwipeSQLite
import SwipeCSV
import SwipeTestSupport
import Testing

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
        let token = try #require(link.split(separator: "=", maxSplits: 1).last)
        let secret = try #require(try SQLiteStore(path: db, create: false).accessSecret(create: false))
        return try AccessTokens(secret: secret).verify(String(token)).viewer
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

        init(_ arguments: [String], folder: String) throws {
            out = folder + "/serve.out"
            err = folder + "/serve.err"
            FileManager.default.createFile(atPath: out, contents: nil)
            FileManager.default.createFile(atPath: err, contents: nil)
            process.executableURL = SwipeBinary.url
            process.arguments = arguments
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
                if let start = text.range(of: "serving http://") {
                    let hostAndPort = text[start.upperBound...].prefix { $0 != "/" }
                    if let colon = hostAndPort.lastIndex(of: ":"),
                       let port = Int(hostAndPort[hostAndPort.index(after: colon)...]) {
                        self.port = port
                        return
                    }
                }
                usleep(10_000)
            }
            throw ServeFailed(output: stdout + stderr)
        }

        /// SIGTERM, then the exit status (60 s at most).
        func stop() -> Int32? {
            process.terminate()
            let deadline = Date().addingTimeInterval(60)
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
        #expect(served.stop() == 0)
    }
}
