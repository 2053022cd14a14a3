#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A view's layer. Its backing store (the bitmap, width x height x 4 bytes) is a separate
/// allocation, drawn when the view is first shown; it can be purged and redrawn.
///
/// The layer lives inline in its view (one allocation for both): UIKit's is a separate
/// object of about 48 bytes, but the bitmap, not the layer object, is what matters, and
/// inlining halves the simulator's allocations per view. It cannot be copied, so a
/// backing store always has exactly one owner.
public struct Layer: ~Copyable {
    private var backingStore: UnsafeMutableRawPointer?
    /// Bytes of the backing store when drawn (0: the layer draws nothing).
    public let backingBytes: Int
    private let pattern: UInt8
    /// The bitmap is in a freezer file (drawn, then frozen).
    private(set) var isFrozen = false

    init(backingBytes: Int, pattern: UInt8) {
        self.backingBytes = backingBytes
        self.pattern = pattern
    }

    deinit {
        free(backingStore)
    }

    /// The bytes of a bitmap of `width` x `height` pixels, 4 bytes each.
    public static func bitmapBytes(width: Int, height: Int) -> Int { width * height * 4 }

    /// Whether the backing store is allocated (drawn and not purged).
    public var hasBackingStore: Bool { backingStore != nil }

    /// Whether showing the layer would draw: it has a bitmap to draw and none is held.
    public var needsDisplay: Bool { backingBytes > 0 && backingStore == nil && !isFrozen }

    /// Draws the backing store if needed: allocates it and writes every byte.
    ///
    /// - Returns: true when it drew.
    @discardableResult
    public mutating func displayIfNeeded() -> Bool {
        guard needsDisplay else { return false }
        backingStore = HeapBlock.allocateTouched(backingBytes, pattern: pattern)
        return true
    }

    /// Frees the backing store; the next display redraws it.
    ///
    /// - Returns: true when there was one to free.
    @discardableResult
    public mutating func purgeBackingStore() -> Bool {
        guard let backingStore else { return false }
        free(backingStore)
        self.backingStore = nil
        return true
    }

    mutating func freeze(to file: FreezerFile) -> Bool {
        guard let backingStore else { return true }
        guard PageOut.freeze(backingStore, count: backingBytes, to: file) else { return false }
        self.backingStore = nil
        isFrozen = true
        return true
    }

    mutating func thaw(from file: FreezerFile) -> Bool {
        guard isFrozen else { return true }
        guard let pointer = PageOut.thaw(count: backingBytes, from: file) else { return false }
        backingStore = pointer
        isFrozen = false
        return true
    }

    /// A checksum of the bitmap, or nil when none is held.
    public func backingStoreChecksum() -> UInt64? {
        guard let backingStore else { return nil }
        return HeapBlock.checksum(UnsafeRawBufferPointer(start: backingStore, count: backingBytes))
    }
}
