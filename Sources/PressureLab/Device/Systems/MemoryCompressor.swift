import PressureLabHeap

/// The in-RAM compressor, as XNU compresses suspended apps' memory and Android's kernel swaps
/// idle apps' pages into zram before lmkd kills: the pool and the device's zram size, and
/// compressing itself, asked by the device when it wants room (before the termination policy
/// kills or freezes anyone), by Linux's reclaim (``LinuxKernel``) and by Android 14's compaction.
///
/// Suspended apps' memory is compressed least recently used first, one app at a time, at the
/// profile's page size with a real codec, into its ``CompressedPool`` (one region per
/// controller and one for the app-wide data). The compressed bytes are real allocations in
/// the app's ledger: the app's footprint is its resident plus its compressed bytes, and
/// that is what the budget, the kill order and the per-app limits see. A resumed app gets
/// its app-wide data back at once and each controller's memory when it is touched (what
/// is on screen first), counted as bytes decompressed, for device time.
final class MemoryCompressor {
    /// The pool.
    let pool: CompressedPool
    /// The zram device's size, uncompressed bytes it can hold (nil: not known, no limit but memory).
    let zramBytes: Int?

    /// The compressor of a device `model` (nil: compression off).
    init?(model: DeviceModel) {
        let codec: PageCodec
        switch model.compressor {
        case .none: return nil
        case .lz4: codec = .lz4
        case .zstd: codec = .zstd
        }
        self.pool = CompressedPool(codec: codec, pageBytes: model.pageBytes)
        self.zramBytes = model.zramBytes
    }

    /// The next app to compress on `device`: suspended, not frozen, with memory not yet
    /// compressed, not `sparing`, least recently used first; with a zram size, only one whose
    /// resident memory still fits the device (a full swap device takes no more).
    func candidate(sparing: Device.InstalledApp?, on device: Device) -> Device.InstalledApp? {
        let zramFree = freeBytes(on: device)
        var candidate: Device.InstalledApp?
        for installed in device.apps where installed.app.state == .suspended && !installed.isFrozen
            && !installed.isFullyCompressed && installed !== sparing && installed !== device.foreground {
            if !Self.fits(installed, free: zramFree) { continue }
            if candidate.map({ installed.useOrder < $0.useOrder }) ?? true { candidate = installed }
        }
        return candidate
    }

    /// The zram device's free room, bytes at their uncompressed size (nil without a zram size):
    /// a swap device holds as many pages as its size (`mm/swapfile.c`, `get_swap_pages` finds no
    /// slot in a full device; zram's `disksize` counts uncompressed pages).
    func freeBytes(on device: Device) -> Int? { zramBytes.map { $0 - usedBytes(on: device) } }

    /// Uncompressed bytes in the pool now, every app's of `device`: what zram counts as swap
    /// used (`/proc/meminfo`'s SwapTotal - SwapFree counts pages, not their compressed size).
    func usedBytes(on device: Device) -> Int {
        var used = 0
        for installed in device.apps { used += installed.app.runtime.compressedOriginalBytes }
        return used
    }

    /// Adds zram to the swap a policy reads (`SwapTotal`, `SwapFree`): its size, less what it
    /// holds at its uncompressed size.
    func readSwap(into state: inout DeviceSnapshot, on device: Device) {
        let total = zramBytes ?? 0
        state.swapTotalBytes += total
        state.swapFreeBytes += max(0, total - (total > 0 ? usedBytes(on: device) : 0))
    }

    /// Whether what `installed` still holds uncompressed fits `free` (``freeBytes(on:)``). The
    /// kernel swaps page by page until the device is full; an app is taken whole or not at all
    /// here (an estimate), by the compressor and by Android 14's compaction alike.
    static func fits(_ installed: Device.InstalledApp, free: Int?) -> Bool {
        guard let free else { return true }
        return installed.bytes - installed.app.runtime.compressedBytes <= free
    }

    /// Compresses what a suspended app still holds uncompressed into the pool; false when
    /// it could not (nothing is lost: what was compressed of a failed region is read back).
    func compress(_ installed: Device.InstalledApp, on device: Device) -> Bool {
        guard installed.app.state == .suspended, !installed.isFrozen else { return false }
        var ok = true
        for controller in installed.app.controllers where ok { ok = controller.compressMemory(into: pool) }
        ok = ok && installed.app.compressAppData(into: pool)
        // Tried once until it runs again, whether or not every region went in.
        installed.isFullyCompressed = true
        guard ok else { return false }
        device.metrics.appsCompressed += 1
        installed.app.runtime.trace.record(app: installed.name, controller: nil, .compressed)
        return true
    }
}

extension DeviceMetrics {
    /// Takes the pool's counters.
    mutating func copyCounters(of pool: CompressedPool) {
        compressions = pool.compressions
        decompressions = pool.decompressions
        bytesCompressed = pool.bytesCompressed
        bytesStoredCompressed = pool.bytesStored
        compressedBytesNow = pool.storedBytesNow
        compressedBytesPeak = pool.storedBytesPeak
    }
}

extension TraceEventKind {
    /// Memory went into the in-RAM compressed pool (an app, or one controller's region).
    public static let compressed = TraceEventKind("compressed")
    /// A controller's memory came back from the compressed pool (it was touched).
    public static let decompressed = TraceEventKind("decompressed")
}
