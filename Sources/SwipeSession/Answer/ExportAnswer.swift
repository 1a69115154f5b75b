import Foundation
import SwipeStore

/// What `me export [FILE]` shows (Documentation/PersonalData.md, "Export"):
/// the document `swipe export` writes, read by the same rule
/// (`exportPersonalData`) and written by the same writer
/// (`PersonalExport.json`); or, when it went to a file, where.
package struct ExportAnswer {
    package var document: PersonalExport
    /// The file it was written to, as typed; nil: the answer holds it.
    package var file: String?
    /// Its size in bytes, once written.
    package var bytes = 0

    /// JSON mode and the socket: `export`, the document itself as one
    /// object (its numbers exactly as stored); or `exported`, where it went.
    package var jsonMembers: [(String, JSONValue)] {
        guard let file else { return [("export", .verbatim(document.compactJSON))] }
        return [
            (
                "exported",
                .object([
                    ("viewer", .string(document.viewer)), ("file", .string(file)),
                    ("bytes", .number(Double(bytes))),
                ])
            )
        ]
    }
}

extension ReplSession {
    /// `me export [FILE]`: reads the viewer's data; with a file (`~` is the
    /// home folder, a relative path the working directory's), writes it as
    /// `swipe export FILE` does, replacing the file whole.
    ///
    /// - Throws: `CommandError` when this session may not write files (a
    ///   socket's), `AtomicFile.Failure` naming the file.
    package func export(to file: String?) throws -> ExportAnswer {
        if let file, !writesFiles {
            throw CommandError(
                input: "me export \(file)",
                message: "me export: a page downloads your data (Download my data, or GET /me/export); "
                    + "a file is written only by the REPL and swipe export, on the database's machine; "
                    + "me export without a file answers the document")
        }
        var answer = ExportAnswer(document: try ledger.exportPersonalData(), file: file)
        if let file {
            let text = answer.document.json
            try AtomicFile.write(text, to: (file as NSString).expandingTildeInPath)
            answer.bytes = text.utf8.count
        }
        return answer
    }
}
