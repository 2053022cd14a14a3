/// Apps' memory in the background measured on a phone, for `pressurelab device` to set beside
/// the modelled figures: a Pixel 4 on Android 10 (AOSP with GMS), not Fleet's Pixel 3, and the
/// app versions of 2022 (EMDC-OS/remote-swap @ 484a3795, `shell/220316/AB_z_nolock/proc_info.txt`:
/// the PSS and swap of every process after each launch, nine apps launched in turn for ten
/// rounds with zram on and no memory locked, so no pressure and nothing killed). Each figure is
/// the sum over the app's own processes (its package's: Chrome's renderers, GPU process and
/// zygote, Instagram's `:mqtt`) in every print after the app's first launch but the ones right
/// after its own launches: the mean, the smallest and the largest, kB.
public struct MeasuredBackgroundMemory: Sendable, Equatable {
    /// The mean over the prints, kB.
    public var meanKB: Int
    /// The smallest print, kB.
    public var minKB: Int
    /// The largest print, kB.
    public var maxKB: Int
    /// The prints averaged.
    public var prints: Int

    /// Where the figures come from.
    public static let source = "Pixel 4, Android 10: EMDC-OS/remote-swap @ 484a3795 shell/220316/AB_z_nolock/proc_info.txt"

    /// By Fleet's app name (the source's Maps, YouTube, Candy Crush, Chrome, Twitter, Instagram).
    public static let byApp: [String: MeasuredBackgroundMemory] = [
        "googlemaps": .init(meanKB: 162_789, minKB: 139_807, maxKB: 186_655, prints: 80),
        "youtube": .init(meanKB: 150_646, minKB: 124_631, maxKB: 165_711, prints: 79),
        "candycrush": .init(meanKB: 329_012, minKB: 285_645, maxKB: 401_699, prints: 78),
        "chrome": .init(meanKB: 256_089, minKB: 239_639, maxKB: 299_863, prints: 77),
        "twitter": .init(meanKB: 113_103, minKB: 100_360, maxKB: 139_773, prints: 76),
        "instagram": .init(meanKB: 188_147, minKB: 170_345, maxKB: 198_137, prints: 73),
    ]
}
