import ArgumentParser
import SwipeCore
import SwipeStore

// Option values parsed straight into the shared enums (by raw value). Declared
// once here for every command, the REPL's included.
/// `--decision like|hate|nope|superlike`: nope is hate's other name.
extension Decision: ExpressibleByArgument {
    public init?(argument: String) { self.init(name: argument) }
    public static var allValueStrings: [String] { names }
}

/// `--sync normal|full`, one setting for every backend.
extension Durability: ExpressibleByArgument {}
