/// Page-sized buffers outside the measured heap, reused: what a packed stream stages a page
/// in, and what a freezer file's page is read into. They are the simulator's (the kernel's,
/// on a phone), not a simulated app's, so they must not be allocated in jemalloc inside an
/// owner's measured scope.
package enum PageBuffers {
    /// A buffer of at least `bytes` (set to its size), owned by the caller until ``give(_:bytes:)``;
    /// nil when the host has no memory for it.
    package static func take(_ bytes: inout Int) -> UnsafeMutableRawPointer? {
        CodecWorkspace.takePage(&bytes)
    }

    /// Gives back a buffer from ``take(_:)`` (on any thread).
    package static func give(_ address: UnsafeMutableRawPointer, bytes: Int) {
        CodecWorkspace.givePage(address, bytes: bytes)
    }
}
