import Foundation

/// `swipe serve` and `swipe link` live in a program of their own,
/// `swipe-serve`, so that the REPL and every other command build without
/// the web server's dependencies (Hummingbird, SwiftNIO, swift-crypto):
/// `make run` builds only `swipe`. `swipe serve …` runs `swipe-serve
/// serve …` in its place, as git runs `git-*` programs, found beside the
/// running `swipe` first, then on `PATH`.
package enum ServeCommands {
    /// The subcommands `swipe` hands to `swipe-serve`.
    package static let names: Set<String> = ["serve", "link"]
    package static let program = "swipe-serve"

    package static let serveAbstract = "Serve the deck as a web page, one WebSocket session per signed-in viewer."
    package static let linkAbstract = "Print a sign-in link for swipe serve that acts as one viewer until it expires."

    /// Where `swipe-serve` is: beside the running executable (resolved
    /// through symbolic links), else the first on `PATH`; nil when neither.
    package static func locate(
        executable: String = Bundle.main.executablePath ?? CommandLine.arguments[0],
        path: String? = ProcessInfo.processInfo.environment["PATH"]
    ) -> String? {
        let resolved = URL(fileURLWithPath: executable).resolvingSymlinksInPath()
        let beside = resolved.deletingLastPathComponent().appendingPathComponent(program).path
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        for directory in (path ?? "").split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/\(program)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Replaces this process with `swipe-serve` given `arguments` (those
    /// after `swipe`) for `command` (serve or link); returns only when that
    /// cannot be done, with the sentence to print.
    package static func replaceProcess(arguments: [String], command: String) -> String {
        guard let program = locate() else {
            return "`swipe \(command)` is run by the \(Self.program) program, which is not "
                + "installed beside this swipe nor on PATH; build it with `swift build --product \(Self.program)` "
                + "(`make serve` builds both)"
        }
        let argv = [program] + arguments
        var cArguments = argv.map { strdup($0) }
        cArguments.append(nil)
        execv(program, cArguments)
        let reason = String(cString: strerror(errno))
        for pointer in cArguments { free(pointer) }
        return "cannot run \(program): \(reason)"
    }
}
