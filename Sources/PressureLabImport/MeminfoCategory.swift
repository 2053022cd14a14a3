import PressureLab
import PressureLabHarness

/// The rows of `dumpsys meminfo`'s per-category table, as Android 4.4 to 14 label them
/// (`Debug.MemoryInfo.getOtherLabel`, and `ActivityThread.dumpMemInfoTable`'s own "Native
/// Heap", "Dalvik Heap", "Unknown" and "TOTAL"), each with the scenario key it maps to.
package enum MeminfoCategory: String, CaseIterable, Sendable {
    case nativeHeap = "Native Heap"
    case dalvikHeap = "Dalvik Heap"
    case dalvikOther = "Dalvik Other"
    case stack = "Stack"
    case cursor = "Cursor"
    case ashmem = "Ashmem"
    case gfxDev = "Gfx dev"
    case otherDev = "Other dev"
    case soMmap = ".so mmap"
    case jarMmap = ".jar mmap"
    case apkMmap = ".apk mmap"
    case ttfMmap = ".ttf mmap"
    case dexMmap = ".dex mmap"
    case oatMmap = ".oat mmap"
    case artMmap = ".art mmap"
    case otherMmap = "Other mmap"
    case eglMtrack = "EGL mtrack"
    case glMtrack = "GL mtrack"
    case otherMtrack = "Other mtrack"
    /// Android 4.4 to 5.0's names for what 5.1 calls EGL mtrack, GL mtrack and Other mtrack.
    case graphics = "Graphics"
    case gl = "GL"
    case memtrack = "Memtrack"
    case unknown = "Unknown"
    case total = "TOTAL"

    /// Where a category's memory goes in a scenario (docs/importing.md).
    package enum Destination: Sendable {
        /// The Java heap: the screen's `model:` (less the views' assumed bytes).
        case javaHeap
        /// Graphics buffers the GPU driver tracks: the screen's `backing:`.
        case graphics
        /// Mapped code and resources: their clean share is `clean:`, their dirty pages `data:`.
        case mappedFiles
        /// Everything else the app dirtied (native heap, stacks, ashmem, ...): `data:`.
        case otherDirty
        /// The table's sum, not a category.
        case sum
    }

    package var destination: Destination {
        switch self {
        case .dalvikHeap: return .javaHeap
        case .gfxDev, .eglMtrack, .glMtrack, .graphics, .gl: return .graphics
        case .soMmap, .jarMmap, .apkMmap, .ttfMmap, .dexMmap, .oatMmap, .artMmap, .otherMmap: return .mappedFiles
        case .nativeHeap, .dalvikOther, .stack, .cursor, .ashmem, .otherDev, .otherMtrack, .memtrack, .unknown: return .otherDirty
        case .total: return .sum
        }
    }

    /// The category a table row starts with (the longest label that matches), and the rest.
    static func match(_ line: Substring) -> (MeminfoCategory, Substring)? {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        for category in allCases.sorted(by: { $0.rawValue.count > $1.rawValue.count })
        where trimmed.hasPrefix(category.rawValue) {
            let rest = trimmed.dropFirst(category.rawValue.count)
            if rest.isEmpty || rest.first == " " || rest.first == "\t" { return (category, rest) }
        }
        return nil
    }
}

/// The table's columns, named by their two header lines (`Pss` over `Total`).
package enum MeminfoColumn: String, CaseIterable, Sendable {
    case pssTotal = "Pss Total"
    case pssClean = "Pss Clean"
    case sharedDirty = "Shared Dirty"
    case privateDirty = "Private Dirty"
    case sharedClean = "Shared Clean"
    case privateClean = "Private Clean"
    /// `SwapPss Dirty` where the kernel reports swap PSS (zram), else `Swap Dirty`.
    case swapPssDirty = "SwapPss Dirty"
    case swapDirty = "Swap Dirty"
    /// Android 4.4 to 6 (and some 7): `Swapped` over `Dirty`.
    case swappedDirty = "Swapped Dirty"
    case rssTotal = "Rss Total"
    case heapSize = "Heap Size"
    case heapAlloc = "Heap Alloc"
    case heapFree = "Heap Free"

    /// The layouts this reader knows, for the message when a header is not one of them.
    static let expectedLayouts = "Android 4.4 to 7: 'Pss Private Private Swapped Heap Heap Heap' over "
        + "'Total Dirty Clean Dirty Size Alloc Free'; Android 8 to 11: the same with 'SwapPss' (or 'Swap') for 'Swapped'; "
        + "Android 12 to 14: with 'Rss' over 'Total' before 'Heap Size'; "
        + "with -a, 'Pss Pss Shared Private Shared Private SwapPss [Rss] Heap Heap Heap' over "
        + "'Total Clean Dirty Dirty Clean Clean Dirty [Total] Size Alloc Free'"
}
