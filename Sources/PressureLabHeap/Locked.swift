import Foundation

/// A value shared between threads, reached only with its lock held: the one place besides
/// the temporary-file registry that a lock makes a class `Sendable` (docs/architecture.md,
/// "Unsafe code").
///
/// ```swift
/// let done = Locked(0)
/// let now = done.withLock { count in count += 1; return count }
/// ```
///
/// - Complexity: one lock and unlock a call.
package final class Locked<Value: Sendable>: @unchecked Sendable {
    // Safe because `value` is private and read or written only inside `withLock`, with `lock`
    // held, and `Value` is itself `Sendable`, so nothing taken out of it shares state.
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` on the value with the lock held. Keep `body` short: every other thread that
    /// reaches the value waits for it.
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
