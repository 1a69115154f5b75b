import ArgumentParser
import Foundation
import SwipeCLI
import SwipeCSV
import SwipeCommandLine
import SwipeSession
import SwipeStore

/// `swipe import FILE.csv` and `swipe import --decisions FILE.csv`.
struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Load profiles, or with --decisions past decisions, from a CSV file (all rows or none).")

    @OptionGroup var database: DatabaseOptions
    @Flag(help: "The file holds decisions: viewer,profile,decision,decided_at[,via].") var decisions = false
    @Flag(help: "Import the valid rows and report each rejected one.") var skipInvalid = false
    @Flag(help: "Skip header columns swipe does not know, naming them, instead of refusing the file.")
    var ignoreUnknown = false
    @Flag(help: "No progress bar and no summary.") var quiet = false
    @Argument(help: "The CSV file, or - for standard input.") var file: String

    func run() throws {
        try ExitStatus.reporting {
            guard file == CSVReader.standardInput || FileManager.default.fileExists(atPath: file) else {
                throw CSVError.notFound(path: file)
            }
            var creation: DatabaseCreation?
            let summary: ImportSummary
            var unknownGenders: String?
            do {
                (summary, unknownGenders) = try load(into: try database.openCreating(), made: &creation)
            } catch {
                // A failed first import leaves no database behind (the store
                // is closed by now): a later command says "no such database",
                // not "viewer not a profile".
                creation?.undo()
                throw error
            }
            var stderr = StandardError()
            if !summary.ignoredColumns.isEmpty {
                let names = summary.ignoredColumns.map { TerminalText.oneLine($0) }.joined(separator: ", ")
                stderr.write(
                    "warning: \(TerminalText.oneLine(summary.file)): skipped unknown column"
                        + (summary.ignoredColumns.count == 1 ? " " : "s ") + names + " (--ignore-unknown)\n")
            }
            for issue in summary.rejected {
                stderr.write("rejected: " + TerminalText.sanitized(issue.description) + "\n")
            }
            if !quiet {
                var out = StandardOutput()
                out.write(TerminalText.sanitized(summary.line) + "\n")
            }
            // A seeking that names a gender nobody has leaves those feeds empty: say so.
            if let unknownGenders { stderr.write("warning: " + TerminalText.sanitized(unknownGenders) + "\n") }
        }
    }

    /// Runs the import into `store`, noting in `made` what opening it created.
    private func load(into store: any SwipeDatabase, made: inout DatabaseCreation?) throws -> (ImportSummary, String?) {
        made = store.creation
        var options = ImportOptions(skipInvalid: skipInvalid)
        options.ignoreUnknown = ignoreUnknown
        Interrupt.install()
        options.shouldStop = { Interrupt.isRequested }
        options.onStopRequest = Interrupt.onRequest
        let bar = ProgressDrawer()
        if !quiet && Terminal.stderrIsTerminal { options.progress = bar.draw }
        defer { bar.clear() }
        if decisions { return (try store.importDecisions(path: file, options: options), nil) }
        let summary = try store.importProfiles(path: file, options: options)
        return (summary, try store.unknownSoughtGenders(after: summary))
    }
}

/// Draws the import progress line on stderr at most ten times a second.
final class ProgressDrawer {
    private let start = ContinuousClock.now
    private var lastDrawn: ContinuousClock.Instant?
    private var drawn = false

    func draw(_ progress: ImportProgress) {
        let now = ContinuousClock.now
        if let lastDrawn, now - lastDrawn < .milliseconds(100) { return }
        lastDrawn = now
        let seconds = (now - start) / .seconds(1)
        var stderr = StandardError()
        stderr.write(
            "\r"
                + ProgressLine.render(
                    bytesRead: progress.bytesRead, totalBytes: progress.totalBytes, rows: progress.rows,
                    seconds: seconds))
        drawn = true
    }

    func clear() {
        guard drawn else { return }
        var stderr = StandardError()
        stderr.write("\r\u{1B}[K")
        drawn = false
    }
}
