import Foundation
import Synchronization

/// Ctrl-C during an import: the handler only sets a flag, which the importer
/// checks before each row and answers by rolling its transaction back.
enum Interrupt {
    static let requested = Atomic<Bool>(false)

    /// Installs the SIGINT handler and unblocks SIGINT on this thread: a
    /// signal mask is inherited, and a parent that blocked it (Foundation's
    /// `Process` on Linux passes its thread's mask on) would otherwise leave
    /// Ctrl-C pending until the import had committed everything.
    static func install() {
        signal(SIGINT) { _ in Interrupt.requested.store(true, ordering: .relaxed) }
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    static var isRequested: Bool { requested.load(ordering: .relaxed) }
}
