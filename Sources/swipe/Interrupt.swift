import Foundation
import Synchronization

/// Ctrl-C during an import: the handler sets a flag, which the importer
/// checks before each row and answers by rolling its transaction back, and
/// wakes a thread of ours that runs the actions registered with `onRequest`
/// (a PostgreSQL cancel request for the statement running then). A signal
/// handler may do little: storing an atomic and `sem_post` are both
/// async-signal-safe; everything else happens on that thread.
enum Interrupt {
    static let requested = Atomic<Bool>(false)
    /// Posted by the handler, waited on by the thread `install` starts.
    nonisolated(unsafe) private static let wakeUp: UnsafeMutablePointer<sem_t> = {
        let semaphore = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
        sem_init(semaphore, 0, 0)
        return semaphore
    }()
    private static let actions = Mutex<(next: Int, registered: [Int: @Sendable () -> Void])>((0, [:]))

    /// Installs the SIGINT handler and unblocks SIGINT on this thread: a
    /// signal mask is inherited, and a parent that blocked it (Foundation's
    /// `Process` on Linux passes its thread's mask on) would otherwise leave
    /// Ctrl-C pending until the import had committed everything.
    static func install() {
        _ = wakeUp
        let thread = Thread {
            while true {
                while sem_wait(wakeUp) != 0 {}  // EINTR: wait again
                let due = actions.withLock { Array($0.registered.values) }
                for action in due { action() }
            }
        }
        thread.name = "swipe-interrupt"
        thread.start()
        signal(SIGINT) { _ in
            Interrupt.requested.store(true, ordering: .relaxed)
            sem_post(Interrupt.wakeUp)
        }
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    static var isRequested: Bool { requested.load(ordering: .relaxed) }

    /// Runs `action` on the interrupt thread when Ctrl-C comes (at once, on
    /// this thread, if it already came), until the returned closure is called.
    static func onRequest(_ action: @escaping @Sendable () -> Void) -> () -> Void {
        let id = actions.withLock { state in
            state.next += 1
            state.registered[state.next] = action
            return state.next
        }
        if isRequested { action() }
        return { _ = actions.withLock { $0.registered.removeValue(forKey: id) } }
    }
}
