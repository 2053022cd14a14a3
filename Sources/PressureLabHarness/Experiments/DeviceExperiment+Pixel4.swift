import PressureLab

extension DeviceExperiment {
    /// The Pixel 4 runs' configurations (`pressurelab device --experiment pixel4`): the phone as
    /// it ships (lmkd on, its 2 GiB lz4 zram), first with its memory free, then with memory
    /// locked away by a process that pins it and swap on flash (`pixel4-published.json` says
    /// where each run and figure comes from).
    public static func pixel4Configurations(compressor: Compressor) -> [Configuration] {
        [
            Configuration(name: "memory-free", termination: .lmk, compressor: compressor,
                          publishedHotLaunch: "memory-free",
                          note: "the Pixel 4 as it ships, lmkd on, \(compressor.rawValue) zram, nothing locked: the source's AB_z_nolock",
                          publishedBackground: "memory-free"),
            Configuration(name: "locked-flash-swap", termination: .lmk, compressor: .none,
                          publishedHotLaunch: "locked-flash-swap",
                          note: "lmkd on, \(Self.pixel4LockedBytes >> 20) MiB locked away, swap on flash: the source's AB_playf_all",
                          swapFileBytes: Self.pixel4SwapFileBytes, lockedBytes: Self.pixel4LockedBytes,
                          publishedBackground: "locked-flash-swap"),
        ]
    }

    /// Memory the source's locked run pins before the apps start: 2,082 MiB, what `free -m`'s used
    /// rose by before the first launch (4,677 MiB in `shell/220316/AB_playf_all/0.txt` against 2,595
    /// in `AB_z_nolock/0.txt`) with two `lock_memory` processes running (pixel4-published.json).
    public static let pixel4LockedBytes = (4677 - 2595) << 20
    /// The swap file on flash of the source's locked run: 8,191 MiB (`free -m`'s swap total in
    /// `AB_playf_all/0.txt`; `initialize_flash_launch.sh` turns zram off and swaps to `/data/swapspace`).
    public static let pixel4SwapFileBytes = 8191 << 20
}
