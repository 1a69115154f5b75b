/// Why no viewer could be used (the executable says how to choose one).
public enum ViewerError: Error, Equatable, Sendable, CustomStringConvertible {
    case noneChosen
    case notAProfile(String)

    public var description: String {
        switch self {
        case .noneChosen:
            "no viewer chosen"
        case .notAProfile(let id):
            "viewer \"\(id)\" is not a profile in this database"
        }
    }
}
