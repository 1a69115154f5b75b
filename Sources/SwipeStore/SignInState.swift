/// What a sign-in needs to know of one viewer now: their sign-in generation
/// and the suspension standing for them, if any. A viewer with no state is
/// no profile (erased): none of their tokens signs in.
public struct SignInState: Hashable, Sendable {
    public var generation: Int
    public var suspension: Suspension?

    public init(generation: Int, suspension: Suspension?) {
        self.generation = generation
        self.suspension = suspension
    }
}
