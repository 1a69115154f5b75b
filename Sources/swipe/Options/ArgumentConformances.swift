import ArgumentParser
import SwipeCLI
import SwipeCore

// Option values parsed straight into the shared enums (by raw value). Declared
// once here for every command, the REPL's included.
extension OutputFormat: ExpressibleByArgument {}
extension Decision: ExpressibleByArgument {}
