import ArgumentParser
import SwipeCLI
import SwipeCore
import SwipeStore
import SwipeSQLite
import SwipeCSV

// Option values parsed straight into the shared enums (by raw value). Declared
// once here for every command, the REPL's included.
extension OutputFormat: ExpressibleByArgument {}
/// `--decision like|hate|nope|superlike`: nope is hate's other name.
extension Decision: ExpressibleByArgument {
    public init?(argument: String) { self.init(name: argument) }
    public static var allValueStrings: [String] { names }
}

/// `--sync normal|full`: lower-case on the command line, SQLite's spelling inside.
extension Connection.Synchronous: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument.uppercased()) }
    public static var allValueStrings: [String] { ["normal", "full"] }
    public var defaultValueDescription: String { rawValue.lowercased() }
}
