import PressureLab

/// A device profile, format version 1 (docs/formats.md, "Device profile"): the modelled device's
/// memory, its compressor, and the per-unit costs of its work, each with its source.
public struct DeviceProfile: Sendable, Equatable {
    /// The platform: its default termination policy and how warnings or trim levels arrive.
    public enum Platform: String, Sendable, Codable, CaseIterable {
        /// iOS (XNU's rules) or Android (ActivityManager's and lmkd's).
        case ios, android

        /// The kernel family the platform's releases run (`Kernel.platformName` names it).
        public var kernel: Kernel { Kernel.allCases.first { $0.platformName == rawValue } ?? .xnu }
    }

    /// The profile's name (`iphone-xs-2018`).
    public var name: String
    /// The device, in a line.
    public var description: String
    /// Which system's rules the device follows.
    public var platform: Platform
    /// The system release whose memory rules apply (`release:`, default the platform's
    /// oldest modelled release, `OSRelease/defaultRelease(apple:)`).
    public var release: OSRelease
    /// Physical memory, bytes.
    public var memoryBytes: Int
    /// What apps share, bytes (a scenario's `device.memory` overrides it).
    public var budgetBytes: Int
    /// The unit of compression and paging, bytes.
    public var pageBytes: Int
    /// The in-RAM compressor of idle apps' memory.
    public var compressor: Compressor
    /// The per-unit costs.
    public var costs: CostModel
    /// Where each cost comes from, by cost name (`Cost`'s raw value: `process_start`, ...).
    public var sources: [String: String]
    /// Compressibility (uncompressed / compressed) of each kind of memory.
    public var content: [MemoryContents.Kind: Double]
    /// The file it was read from, and a hash of its bytes (FNV-1a, 64 bit, hex).
    public var path: String
    /// A hash of the profile file's bytes: results and baselines record it.
    public var hash: String
    /// The display's scale, pixels a point (`display: { scale: }`), when the profile gives it:
    /// `import views` sizes backing stores by it when `--scale` is not given.
    public var displayScale: Double? = nil
    /// The size of the zram swap device, bytes of uncompressed pages it can hold (`zram:`),
    /// when the profile gives it: lmkd's and `CachedAppOptimizer`'s free-swap figures count it.
    public var zramBytes: Int? = nil
    /// Linux's books beside the apps (`kernel:`), when the profile gives them: a scenario with
    /// `device.memory_model: kernel` runs on them (docs/memory-under-load.md).
    public var kernel: LinuxMemoryInputs? = nil
    /// Where each `kernel:` figure comes from, by key (`kernel.mem_total`, ...).
    public var kernelSources: [String: String] = [:]

    /// The cost names a profile declares, in the order the file lists them: `Cost`'s.
    public static let costNames = Cost.allCases.map(\.rawValue)
    /// The kinds of memory `content:` names: `MemoryContents/Kind`'s, in its order.
    public static let contentKinds = MemoryContents.Kind.allCases.map(\.rawValue)

    /// Memory filled as compressible as the profile says, kind by kind, with `overrides` (a
    /// scenario's `device.content`) in place of its own where they name a kind.
    public func contents(overriding overrides: [MemoryContents.Kind: Double] = [:], seed: UInt64) -> MemoryContents {
        MemoryContents(ratios: content.merging(overrides) { _, override in override }, pageBytes: pageBytes, seed: seed)
    }
}
