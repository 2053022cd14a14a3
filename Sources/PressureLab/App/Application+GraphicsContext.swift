/// The app's own graphics context: GPU memory a renderer of the app's own holds (a game
/// engine's GL or Vulkan context, its textures and buffers), apart from the drawn views the
/// system's renderer discards as the app leaves the screen. docs/fidelity.md, "Background
/// memory on Android".
extension Application {
    /// Allocates the graphics context's memory as the process starts (``graphicsContextBytes``).
    ///
    /// What keeps it in the background: Android's trim path reaches only HWUI's own renderer
    /// (`WindowManagerGlobal.trimMemory` calls `ThreadedRenderer.trimMemory`, and
    /// `CanvasContext::trimMemory` trims HWUI's `GrContext` through its `CacheManager`), and a
    /// stopped activity's `ViewRootImpl.destroyHardwareResources` frees the render nodes HWUI
    /// drew; a context the app created itself is the app's to keep or release (a
    /// `GLSurfaceView` keeps it on pause when asked to: `setPreserveEGLContextOnPause`). Measured:
    /// Angry Birds 2 (a Unity game) in the background on a Pixel 4 keeps 161 to 165 MB of GPU
    /// driver (`kgsl-3d0`) mappings resident in every print, with none of it in swap while 360 to
    /// 640 MB of the rest of the process is. So the model keeps it whole while the process lives,
    /// and never compresses or swaps it.
    func startGraphicsContext() {
        guard graphicsContextBytes > 0, graphicsContext == nil else { return }
        runtime.ledger.measure(owner: graphicsContextOwner) {
            graphicsContext = HeapBlock(count: graphicsContextBytes, pattern: 0x6C, gate: runtime.memoryGate,
                                        fill: runtime.contents?[.backing])
        }
    }

    /// Frees the graphics context's memory (the process died).
    func endGraphicsContext() {
        guard graphicsContext != nil else { return }
        runtime.ledger.measure(owner: graphicsContextOwner) { graphicsContext = nil }
        runtime.ledger.remove(owner: graphicsContextOwner)
    }

    /// The bytes the graphics context holds now (measured; 0 when the process does not run).
    public var graphicsContextHeldBytes: Int { runtime.ledger.balance(of: graphicsContextOwner) }

    /// The ledger key of the graphics context's memory (drawn memory: the backing-store category).
    var graphicsContextOwner: MemoryOwner {
        MemoryOwner(controller: ControllerID(screen: "\(name):gpu", instance: 0), category: .backingStore)
    }
}
