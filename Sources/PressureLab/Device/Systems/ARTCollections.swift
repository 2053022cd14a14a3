/// What an Android app's runtime (ART) reads of its heap when it collects in the background,
/// and when it collects there (docs/fidelity.md, "ART's collections in the background").
///
/// The rules, Android 10 (LineageOS/android_art lineage-17.1):
/// - Leaving the foreground, the process state becomes `kProcessStateJankImperceptible`;
///   `Heap::UpdateProcessState` (`runtime/gc/heap.cc`) requests the transition to the
///   background collector `kCollectorTransitionWait` (5 s, `heap.h`) later. With read barriers
///   (arm64) both collectors are concurrent copying, so `DoPendingCollectorTransition` runs one
///   full collection (`kGcTypeFull`, cause `kGcCauseCollectorTransition`), which evacuates every
///   live object (`concurrent_copying.cc`: `force_evacuate_all_` for that cause): the whole live
///   heap is read. Coming back to the foreground cancels a pending transition.
/// - There is no periodic collection: `HeapTaskDaemon` runs queued tasks only. An app that
///   allocates in the background collects again when its allocation reaches the concurrent start
///   threshold: the app's own pace (``Application/backgroundCollectionSeconds``).
/// - Pages a collection reads come back from zram or the swap file first: a page fault, counted
///   as the app's decompression or storage read.
public enum BackgroundCollection: String, Sendable, CaseIterable, Codable {
    /// Android 10's ART: every collection in the background reads the whole live heap, so the
    /// app's heap comes back into memory wherever it was.
    case wholeHeap
    /// Fleet's runtime (ASPLOS 2024; jiachengh/Fleet @ 32f22f7a, `src/Fleet-AOSP/art`,
    /// `jiacheng_global.h` with `ENABLE_BGC` and `ENABLE_APGC` on): going to the background it
    /// sorts objects into hot (launch and working set) and cold regions, advising the cold ones
    /// to the kernel for swap (`MADV_COLD_RUNTIME`); in the background its collector (BGC)
    /// visits only objects allocated there (about a tenth: 24,092 of 287,994 in the artifact's
    /// EXPERIMENTS.md). A collection then reads no page that went to swap.
    case hotObjectsOnly
}

/// ART's timing of collections in the background (Android 10).
public enum ARTCollectionRules {
    /// Seconds from leaving the foreground to the collector transition's full collection
    /// (`kCollectorTransitionWait`, `runtime/gc/heap.h`).
    public static let collectorTransitionWaitSeconds = 5.0
}
