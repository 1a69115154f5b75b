import SwipeSQLite
import SwipeStore

/// What `swipe --version` prints: the release and the newest database
/// schema this binary reads and writes.
enum SwipeVersion {
    static let release = "0.2.0"
    static var current: String { "swipe \(release) (database schema \(Schema.version))" }
}
