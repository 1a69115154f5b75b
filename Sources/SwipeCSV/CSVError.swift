import SwipeStore

/// Why a CSV file could not be read, with the file and physical line (1-based,
/// counting every line break, including those inside quoted fields).
public enum CSVError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file does not exist.
    case notFound(path: String)
    /// The file exists but could not be opened or read.
    case unreadable(path: String, reason: String)
    /// A quoted field opened on `line` never closes before the end of the file.
    case unterminatedQuote(file: String, line: Int)
    /// Something other than a comma or a line break follows a closing quote.
    case junkAfterQuote(file: String, line: Int)
    /// A field on `line` is not valid UTF-8.
    case invalidUTF8(file: String, line: Int)

    public var description: String {
        switch self {
        case let .notFound(path): "\(path): no such file"
        case let .unreadable(path, reason): "\(path): cannot read: \(reason)"
        case let .unterminatedQuote(file, line): "\(file):\(line): quoted field opened here is never closed"
        case let .junkAfterQuote(file, line):
            "\(file):\(line): text after a closing quote (a quote inside a quoted field is written \"\")"
        case let .invalidUTF8(file, line): "\(file):\(line): not valid UTF-8"
        }
    }
}
