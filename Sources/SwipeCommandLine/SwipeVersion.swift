import SwipeSQLite
import SwipeStore

/// What `swipe --version` prints: the release and the newest database
/// schema this binary reads and writes.
package enum SwipeVersion {
    package static let release = "0.2.0"
    package static var current: String { "swipe \(release) (database schema \(Schema.version))" }
}
