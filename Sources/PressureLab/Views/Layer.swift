#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A view's layer. Its backing store (the bitmap, width x height x 4 bytes) is a separate
/// allocation, drawn when the view is first shown; it can be purged and redrawn.
public final class Layer {
    /// Bytes of the backing store when drawn (0: the layer draws nothing).
    public let backingBytes: Int
    private var backingStore: UnsafeMutableRawPointer?
    private let pattern: UInt8

    init(backingBytes: Int, pattern: UInt8) {
        self.backingBytes = backingBytes
        self.pattern = pattern
    }

    deinit {
        free(backingStore)
    }

    /// Whether the backing store is allocated (drawn and not purged).
    public var hasBackingStore: Bool { backingStore != nil }

    /// Whether showing the layer would draw: it has a bitmap to draw and none is held.
    public var needsDisplay: Bool { backingBytes > 0 && backingStore == nil }

    /// Draws the backing store if needed: allocates it and writes every byte.
    ///
    /// - Returns: true when it drew.
    @discardableResult
    public func displayIfNeeded() -> Bool {
        guard needsDisplay else { return false }
        backingStore = HeapBlock.allocateTouched(backingBytes, pattern: pattern)
        return true
    }

    /// Frees the backing store; the next display redraws it.
    ///
    /// - Returns: true when there was one to free.
    @discardableResult
    public func purgeBackingStore() -> Bool {
        guard let backingStore else { return false }
        free(backingStore)
        self.backingStore = nil
        return true
    }

    /// A checksum of the bitmap, or nil when none is held.
    public func backingStoreChecksum() -> UInt64? {
        guard let backingStore else { return nil }
        return HeapBlock.checksum(UnsafeRawBufferPointer(start: backingStore, count: backingBytes))
    }
}
