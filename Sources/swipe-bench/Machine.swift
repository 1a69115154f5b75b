import CSQLite
import Foundation

/// What the numbers were measured on, for the top of BENCHMARKS.md.
enum Machine {
    static func describe() -> String {
        let cpu = firstValue(in: "/proc/cpuinfo", key: "model name") ?? "unknown"
        let memory = firstValue(in: "/proc/meminfo", key: "MemTotal") ?? "unknown"
        let load =
            (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?
            .split(separator: " ").prefix(3).joined(separator: " ") ?? "unknown"
        return """
            - CPU: \(cpu), nproc \(ProcessInfo.processInfo.activeProcessorCount)
            - memory: \(memory)
            - SQLite (linked): \(String(cString: sqlite3_libversion()))
            - load average at start (1, 5, 15 min): \(load)
            """
    }

    private static func firstValue(in file: String, key: String) -> String? {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(key) {
            return line.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) }
        }
        return nil
    }
}
