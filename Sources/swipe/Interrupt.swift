import Foundation
import Synchronization

/// Ctrl-C during an import: the handler only sets a flag, which the importer
/// checks before each row and answers by rolling its transaction back.
enum Interrupt {
    static let requested = Atomic<Bool>(false)

    /// Installs the SIGINT handler.
    static func install() {
        signal(SIGINT) { _ in Interrupt.requested.store(true, ordering: .relaxed) }
    }

    static var isRequested: Bool { requested.load(ordering: .relaxed) }
}
