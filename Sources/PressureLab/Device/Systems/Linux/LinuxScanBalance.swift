/// Which LRU lists reclaim takes from, as Linux 4.9's `get_scan_count` decides
/// (`mm/vmscan.c` of the Pixel 3's msm-4.9, read in jiachengh/Fleet's `src/Fleet-Kernel/msm-google`;
/// docs/memory-under-load.md, "Reclaim"):
///
/// - no swap space to put anonymous pages in: file pages only (`SCAN_FILE`);
/// - file pages and free memory together at most the high watermarks: anonymous pages only
///   (`SCAN_ANON`: the page cache is nearly gone);
/// - enough inactive file pages (`!inactive_list_is_low(file)`): file pages only, the
///   anonymous working set left alone; a kernel built with `CONFIG_BALANCE_ANON_FILE_RECLAIM`
///   (both Pixels' defconfigs) skips this shortcut;
/// - otherwise both, anonymous pages weighted `swappiness` against file pages' `200 - swappiness`
///   (`SCAN_FRACT`). The kernel also scales each weight by how many of the list's recently
///   scanned pages were rotated back (`recent_rotated` / `recent_scanned`); the model keeps no
///   per-page reference history and leaves that ratio at 1 (an estimate).
public enum LinuxScanBalance: Sendable, Equatable {
    /// File pages only.
    case file
    /// Anonymous pages only.
    case anon
    /// Anonymous and file pages, weighted.
    case fraction(anonWeight: Int, fileWeight: Int)

    /// The balance for a reclaim pass.
    ///
    /// - Parameters:
    ///   - swapAvailable: whether anonymous pages have somewhere to go (free swap or zram).
    ///   - inactiveFileBytes: the inactive file LRU list.
    ///   - activeFileBytes: the active file LRU list.
    ///   - swappiness: `vm.swappiness`.
    ///   - freeBytes: free memory (`SCAN_ANON` when it plus the file pages is at most the high watermarks).
    ///   - highWatermarkBytes: the high watermarks.
    ///   - balancesAnonAndFile: `CONFIG_BALANCE_ANON_FILE_RECLAIM` (no inactive-file shortcut).
    public static func decide(swapAvailable: Bool, inactiveFileBytes: Int, activeFileBytes: Int, swappiness: Int,
                              freeBytes: Int = 0, highWatermarkBytes: Int = 0, balancesAnonAndFile: Bool = false) -> Self {
        guard swapAvailable, swappiness > 0 else { return .file }
        if inactiveFileBytes + activeFileBytes + freeBytes <= highWatermarkBytes { return .anon }
        if !balancesAnonAndFile, inactiveFileBytes > 0,
           !inactiveListIsLow(inactiveBytes: inactiveFileBytes, activeBytes: activeFileBytes) {
            return .file
        }
        return .fraction(anonWeight: swappiness, fileWeight: 200 - swappiness)
    }

    /// `inactive_list_is_low` (4.9): the list's inactive pages x the inactive ratio are fewer
    /// than its active pages, the ratio being ⌊√(10 x GiB)⌋ for a list of at least 1 GiB
    /// (inactive + active), else 1.
    public static func inactiveListIsLow(inactiveBytes: Int, activeBytes: Int) -> Bool {
        let gib = (inactiveBytes + activeBytes) >> 30
        let ratio = gib > 0 ? LinuxWatermarks.integerSquareRoot(10 * gib) : 1
        return inactiveBytes * ratio < activeBytes
    }

    /// Whether the next batch should be anonymous, given what this pass scanned of each so far:
    /// the list whose share of the pass lags its weight goes next.
    public func nextIsAnon(anonScannedBytes: Int, fileScannedBytes: Int) -> Bool {
        switch self {
        case .file: return false
        case .anon: return true
        case .fraction(let anon, let file):
            // anonScanned / fileScanned below anon / file: anon's turn.
            return anonScannedBytes.multipliedSaturating(by: file) <= fileScannedBytes.multipliedSaturating(by: anon)
        }
    }
}
