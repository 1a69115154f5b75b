import Foundation

/// The REPL as a UI drives it: start-up of `swipe --help` (against
/// `sqlite3 --version` for scale), and per-command latency of `drag`
/// (pure: no database) and `like` (a commit) through `swipe repl --json`,
/// each command written and its one JSON line read back before the next.
struct ReplBench {
    let data: DataSet
    let swipe: String
    let sqlite3: String?
    let runs: Int
    let commandsPerRun: Int

    func run() throws -> [ReportRow] {
        log("repl: start-up, \(runs) alternated runs …")
        var contenders: [() throws -> Samples] = [{ Samples([try ChildProcess.check([swipe, "--help"]).seconds]) }]
        if let sqlite3 { contenders.append { Samples([try ChildProcess.check([sqlite3, "--version"]).seconds]) } }
        let startUp = try Alternation.run(runs: max(runs, 20), contenders)
        var rows = [
            ReportRow(
                benchmark: "start-up: swipe --help vs sqlite3 --version", swipe: duration(startUp[0].medianOfMedians),
                baseline: sqlite3 == nil ? "" : duration(startUp[1].medianOfMedians),
                ratio: sqlite3 == nil ? nil : startUp[0].medianOfMedians / startUp[1].medianOfMedians)
        ]

        var session = 0
        func commands(_ line: String) throws -> Samples {
            session += 1
            let viewer = ProfileCSVWriter.id(data.roles.replViewer(session))
            let repl = try ReplSession(
                swipe: swipe, arguments: ["repl", "--json", "--db", data.workDB, "--as", viewer])
            defer { repl.close() }
            var samples = Samples()
            for _ in 0..<commandsPerRun { samples.append(try Clock.time { try repl.send(line) }) }
            return samples
        }
        do {
            log("repl: \(runs) alternated sessions of \(commandsPerRun) drag and like commands …")
            let latency = try Alternation.run(runs: runs, [{ try commands("drag 10 -2") }, { try commands("like") }])
            for (name, runs) in [("drag 10 -2", latency[0]), ("like", latency[1])] {
                rows.append(
                    ReportRow(
                        benchmark: "swipe repl --json (\(data.label)): `\(name)` per command",
                        swipe: "p50 \(duration(runs.medianOfMedians)), p99 \(duration(runs.pooled.quantile(0.99))), "
                            + "p999 \(duration(runs.pooled.quantile(0.999)))"))
            }
            rows.append(Self.growth(of: latency[1], label: data.label))
        } catch let error as ReplSession.Unavailable {
            rows.append(ReportRow(benchmark: "swipe repl --json per command", swipe: "not measured: \(error.reason)"))
        }
        return rows
    }
}

extension ReplBench {
    /// Whether a like costs more late in a long session than early: the p50
    /// of each session's last 200 likes against its first 200 (medians over
    /// the sessions). Until the deck's undo history was a persistent stack
    /// (`UndoStack`), each like copied every earlier decision of the session.
    static func growth(of sessions: [Samples], label: String) -> ReportRow {
        let window = 200
        let measured = sessions.filter { $0.count >= 2 * window }
        guard !measured.isEmpty, let count = measured.map(\.count).min() else {
            return ReportRow(benchmark: "swipe repl --json (\(label)): `like` late vs early", swipe: "not measured")
        }
        let early = Samples(measured.map { Samples(Array($0.values.prefix(window))).median }).median
        let late = Samples(measured.map { Samples(Array($0.values.suffix(window))).median }).median
        return ReportRow(
            benchmark: "swipe repl --json (\(label)): `like` p50 in a long session, "
                + "likes \(count - window + 1)–\(count) vs 1–\(window)",
            swipe: "p50 \(duration(late))", baseline: "p50 \(duration(early))", ratio: late / early,
            target: "≤ 1.5×", met: late / early <= 1.5)
    }
}

/// A `swipe repl --json` child fed one line at a time.
final class ReplSession {
    struct Unavailable: Error { var reason: String }

    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var pending: [UInt8] = []

    init(swipe: String, arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: swipe)
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Answered once before any command is timed: the process's start-up
        // (the start-up row measures it) is not the first command's latency.
        try send("deck")
    }

    /// Writes `line` and waits for its answer; the answer must be `"ok":true`.
    func send(_ line: String) throws {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
        let answer = try readLine()
        guard answer.hasPrefix("{"), answer.contains("\"ok\":true") else {
            throw Unavailable(reason: "`\(line)` answered \(answer.prefix(120).debugDescription)")
        }
    }

    private func readLine() throws -> String {
        let descriptor = output.fileHandleForReading.fileDescriptor
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            if let newline = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            let count = read(descriptor, &chunk, chunk.count)
            guard count > 0 else { throw Unavailable(reason: "swipe repl --json closed its output") }
            pending += chunk[..<count]
        }
    }

    func close() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
