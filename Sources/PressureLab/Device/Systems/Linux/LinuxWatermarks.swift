/// The page allocator's watermarks, as Linux computes them at boot (`mm/page_alloc.c`), summed
/// over the zones (docs/memory-under-load.md, "Watermarks").
///
/// - `init_per_zone_wmark_min`: `min_free_kbytes` = the integer square root of
///   (lowmem in KiB x 16), at least 128 and at most 65,536, unless the system sets it.
/// - `__setup_per_zone_wmarks`: each zone's min is its share of `min_free_kbytes`; its low is
///   min + max(min / 4, managed pages x `watermark_scale_factor` / 10,000) and high that step
///   twice; Android's kernels add the zone's share of `extra_free_kbytes` to low and high.
///   Summed over zones (each zone's share is in proportion to its pages, and both zones of a
///   phone take the same branch of the max), the device's figures are these of its whole memory.
///
/// Below low an allocation wakes kswapd, which reclaims until free memory is above high; below
/// min only the allocator's own reclaim (direct reclaim) goes on, and failing that the OOM killer.
public struct LinuxWatermarks: Sendable, Equatable {
    /// The min watermark, bytes.
    public var minBytes: Int
    /// The low watermark, bytes: kswapd wakes below it.
    public var lowBytes: Int
    /// The high watermark, bytes: kswapd stops above it.
    public var highBytes: Int

    /// The watermarks of a device with `inputs`.
    public init(_ inputs: LinuxMemoryInputs) {
        let minKB = inputs.minFreeKbytes ?? Self.defaultMinFreeKbytes(memTotalBytes: inputs.memTotalBytes)
        let min = minKB * 1024
        let step = max(min / 4, inputs.memTotalBytes / 10_000 * inputs.watermarkScaleFactor)
        let extra = inputs.extraFreeKbytes * 1024
        self.minBytes = min
        self.lowBytes = min + step + extra
        self.highBytes = min + 2 * step + extra
    }

    /// Watermarks given directly (tests).
    public init(minBytes: Int, lowBytes: Int, highBytes: Int) {
        (self.minBytes, self.lowBytes, self.highBytes) = (minBytes, lowBytes, highBytes)
    }

    /// The kernel's `min_free_kbytes` for a device that does not set it (`init_per_zone_wmark_min`):
    /// the integer square root of lowmem in KiB x 16, clamped to 128 ... 65,536. Lowmem is taken
    /// as MemTotal (`nr_free_buffer_pages` at boot: the managed pages above the high
    /// watermarks, which are not set yet; on arm64 every zone is lowmem).
    public static func defaultMinFreeKbytes(memTotalBytes: Int) -> Int {
        let lowmemKB = memTotalBytes / 1024
        return Swift.min(65_536, Swift.max(128, integerSquareRoot(lowmemKB * 16)))
    }

    /// ⌊√n⌋, as the kernel's `int_sqrt`.
    static func integerSquareRoot(_ n: Int) -> Int {
        guard n > 1 else { return max(0, n) }
        var root = Int(Double(n).squareRoot())
        while root * root > n { root -= 1 }
        while (root + 1) * (root + 1) <= n { root += 1 }
        return root
    }
}
