import Foundation

/// Runs a program to completion with stdout and stderr discarded and reports
/// its wall time and peak resident memory (`ru_maxrss` from `wait4`), which
/// Foundation's `Process` does not expose.
enum ChildProcess {
    struct Outcome {
        var seconds: Double
        /// Peak resident set of the child, in bytes.
        var maxRSS: Int
        var status: Int32
    }

    /// `input`: a file given to the program as its standard input (else it inherits ours).
    static func run(_ arguments: [String], environment: [String: String] = [:], input: String? = nil) throws -> Outcome
    {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let input { posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var merged = ProcessInfo.processInfo.environment
        merged.merge(environment) { $1 }
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let start = Clock.now()
        let code = posix_spawn(&pid, arguments[0], &actions, nil, argv, envp)
        guard code == 0 else { throw BenchError("cannot start \(arguments[0]): \(String(cString: strerror(code)))") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw BenchError("wait4 failed for \(arguments[0])") }
        }
        let seconds = Clock.now() - start
        // WIFEXITED / WEXITSTATUS are macros Swift cannot import.
        let exitStatus: Int32 = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return Outcome(seconds: seconds, maxRSS: Int(usage.ru_maxrss) * 1024, status: exitStatus)
    }

    /// `run`, failing unless the program exits 0.
    static func check(_ arguments: [String], environment: [String: String] = [:], input: String? = nil) throws
        -> Outcome
    {
        let outcome = try run(arguments, environment: environment, input: input)
        guard outcome.status == 0 else {
            throw BenchError("\(arguments.joined(separator: " ")) exited with status \(outcome.status)")
        }
        return outcome
    }

    /// The absolute path of `program` on `$PATH`, or nil.
    static func which(_ program: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(program)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

extension ChildProcess {
    struct Streamed {
        var seconds: Double
        /// From the start until the first byte of standard output arrived.
        var firstByte: Double
        var bytes: Int
        var status: Int32
    }

    /// Runs a program with its standard output read through a pipe (and
    /// thrown away), as a terminal or `less` would read it: the wall time,
    /// when the first byte came, and how many there were.
    static func streamed(_ arguments: [String]) throws -> Streamed {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw BenchError("pipe failed") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        posix_spawn_file_actions_addclose(&actions, fds[1])
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let start = Clock.now()
        let code = posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
        close(fds[1])
        guard code == 0 else {
            close(fds[0])
            throw BenchError("cannot start \(arguments[0]): \(String(cString: strerror(code)))")
        }
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { buffer.deallocate() }
        var firstByte = Double.nan
        var bytes = 0
        while true {
            let count = read(fds[0], buffer, 1 << 16)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            if bytes == 0 { firstByte = Clock.now() - start }
            bytes += count
        }
        close(fds[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw BenchError("waitpid failed for \(arguments[0])") }
        }
        let exitStatus: Int32 = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        guard exitStatus == 0 else {
            throw BenchError("\(arguments.joined(separator: " ")) exited with status \(exitStatus)")
        }
        return Streamed(seconds: Clock.now() - start, firstByte: firstByte, bytes: bytes, status: exitStatus)
    }
}
