#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PressureLab
import PressureLabHeap

/// SIGINT and SIGTERM end the process cleanly: its temporary outputs and bundle
/// directories are removed (``TemporaryFiles``), then it exits with 128 + the signal.
///
/// The signals are blocked in every thread (the mask is set before any other thread
/// starts, and threads inherit it) and one dedicated thread takes them with `sigwait`, so
/// the cleanup runs as ordinary code on an ordinary thread, never inside a signal handler.
/// (This is what a dispatch signal source does underneath; on Linux an ignored signal
/// that is not blocked is discarded before a signal source can see it.) A signal that was
/// ignored when the process started (a background job's SIGINT) stays ignored.
///
/// The thread is a bare POSIX thread that only waits in `sigwait`: it allocates nothing
/// and touches no state until a signal comes, so it cannot disturb the runs it watches.
///
/// SIGPIPE is ignored, so that writing to a closed pipe is an ordinary write error
/// (EPIPE), reported and cleaned up like any other.
enum SignalCleanup {
    /// Called on the signal's thread before the cleanup (a sweep reports what did not finish).
    static var beforeExit: (@Sendable (Int32) -> Void)? {
        get { beforeExitHook.withLock { $0 } }
        set { beforeExitHook.withLock { $0 = newValue } }
    }

    /// ``beforeExit``, behind a lock: the command's thread sets it, the signal's thread reads it.
    private static let beforeExitHook = Locked<(@Sendable (Int32) -> Void)?>(nil)

    /// The signals the thread waits for: SIGINT and SIGTERM unless ignored, decided once, at
    /// ``install()`` (the first use), before the thread starts.
    private static let watched: sigset_t = {
        var set = sigset_t()
        sigemptyset(&set)
        for number in [SIGINT, SIGTERM] where !isIgnored(number) { sigaddset(&set, number) }
        return set
    }()

    /// Installs the handling; call first thing in `main`, before any other thread starts.
    static func install() {
        _ = signal(SIGPIPE, SIG_IGN)
        guard withUnsafePointer(to: watched, { pthread_sigmask(SIG_BLOCK, $0, nil) }) == 0 else { return }
        #if canImport(Glibc)
        var thread = pthread_t()
        #elseif canImport(Darwin)
        var thread: pthread_t?
        #endif
        guard pthread_create(&thread, nil, { _ in SignalCleanup.waitForSignal() }, nil) == 0 else {
            _ = withUnsafePointer(to: watched) { pthread_sigmask(SIG_UNBLOCK, $0, nil) }
            return
        }
    }

    /// The thread's body: waits for a watched signal, then cleans up and exits.
    private static func waitForSignal() -> Never {
        var received: Int32 = 0
        while withUnsafePointer(to: watched, { sigwait($0, &received) }) != 0 {}
        beforeExit?(received)
        TemporaryFiles.terminateProcess(afterSignal: received)
    }

    /// True when the signal's disposition is "ignore" (inherited from the parent).
    private static func isIgnored(_ number: Int32) -> Bool {
        var current = sigaction()
        guard sigaction(number, nil, &current) == 0 else { return false }
        #if canImport(Glibc)
        let handler = current.__sigaction_handler.sa_handler
        #elseif canImport(Darwin)
        let handler = current.__sigaction_u.__sa_handler
        #endif
        return unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }
}
