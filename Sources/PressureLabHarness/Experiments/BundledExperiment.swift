import PressureLab

/// The published experiments that ship with PressureLab (`pressurelab device --experiment NAME`):
/// each a workload in `scenarios/experiments/`, an optional hot-launch workload, the published
/// figures beside them, and the device configurations it runs.
public enum BundledExperiment: String, CaseIterable, Sendable {
    /// Fleet's caching experiment (ASPLOS 2024) on a Pixel 3: 18 apps launched in turn twice,
    /// apps alive after each launch and hot launches (`fleet-18.yaml`, `fleet-published.json`).
    case fleet
    /// The Pixel 4 runs whose background memory the Fleet comparison borrows: nine apps
    /// launched in turn for ten rounds, with memory free (zram on, nothing locked) and with
    /// memory locked away and swap on flash (`pixel4-rounds.yaml`, `pixel4-published.json`).
    case pixel4

    /// What it is, in a line (`--help` lists them).
    public var summary: String {
        switch self {
        case .fleet: return "Fleet's caching experiment, Pixel 3 (the default)"
        case .pixel4: return "nine apps for ten rounds on a Pixel 4, memory free and memory locked with swap on flash"
        }
    }

    /// The workload's file name in `scenarios/experiments/`.
    public var workloadFile: String {
        switch self {
        case .fleet: return "fleet-18.yaml"
        case .pixel4: return "pixel4-rounds.yaml"
        }
    }

    /// The hot-launch workload's file name, when the experiment times hot launches in a
    /// workload of their own (else the workload's own resumes are timed).
    public var hotLaunchFile: String? {
        switch self {
        case .fleet: return "fleet-hot-launch.yaml"
        case .pixel4: return nil
        }
    }

    /// The published figures' file name.
    public var publishedFile: String {
        switch self {
        case .fleet: return "fleet-published.json"
        case .pixel4: return "pixel4-published.json"
        }
    }

    /// The configurations it runs; `compressor` is the profile's (lz4 when it names none).
    public func configurations(compressor: Compressor) -> [DeviceExperiment.Configuration] {
        switch self {
        case .fleet: return DeviceExperiment.configurations(compressor: compressor)
        case .pixel4: return DeviceExperiment.pixel4Configurations(compressor: compressor)
        }
    }
}
