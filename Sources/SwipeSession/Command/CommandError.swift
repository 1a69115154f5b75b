/// A line the REPL could not understand: the line as typed and a message
/// that says what was wrong and how to say it right. Parsing errors change
/// nothing and never end the session.
public struct CommandError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The whole line as typed (trimmed).
    public var input: String
    public var message: String

    public init(input: String, message: String) {
        self.input = input
        self.message = message
    }

    public var description: String { message }
}
