import PressureLab
import PressureLabHeap
import SystemPackage
import Yams

/// The `device` section: memory, thresholds, limits, profile, contents, release.
extension ScenarioReader {
    mutating func device(_ node: Node) -> Scenario.DeviceSpec? {
        guard let map = mapping(node, "device", allowed: Self.deviceKeys) else { return nil }
        let memory = required(map, "memory", in: node, path: "device").flatMap { bytes($0, "device.memory") }
        if let memory, memory < 1 << 20 {
            error(value(map, "memory"), "device.memory", "a budget of \(memory) bytes is too small; give at least 1MiB")
        }
        var thresholds = PressureThresholds.default
        if let pressure = value(map, "pressure"), let levels = mapping(pressure, "device.pressure", allowed: ["warning", "critical"]) {
            for (levelName, levelNode) in levels {
                guard let levelName = levelName.string, ["warning", "critical"].contains(levelName) else { continue }
                let key = "device.pressure.\(levelName)"
                guard let pair = mapping(levelNode, key, allowed: ["rise", "clear"]) else { continue }
                let rise = required(pair, "rise", in: levelNode, path: key).flatMap { fraction($0, "\(key).rise") }
                let clear = required(pair, "clear", in: levelNode, path: key).flatMap { fraction($0, "\(key).clear") }
                if levelName == "warning" {
                    thresholds.warningRise = rise ?? thresholds.warningRise
                    thresholds.warningClear = clear ?? thresholds.warningClear
                } else {
                    thresholds.criticalRise = rise ?? thresholds.criticalRise
                    thresholds.criticalClear = clear ?? thresholds.criticalClear
                }
            }
            if let problem = thresholds.problem { error(pressure, "device.pressure", problem) }
        }
        let limit = value(map, "app_limit").flatMap { bytes($0, "device.app_limit") }
        let inactiveLimit = value(map, "app_limit_inactive").flatMap { bytes($0, "device.app_limit_inactive") }
        // A bundled profile's name, or a profile file's path (with a `/` or a `.yaml` ending)
        // read against the scenario's folder; kept resolved, so that a run from any folder
        // reads the same file. Read now, so that one that reaches nothing fails validation,
        // located here, rather than the run.
        var profile: String?
        var profileKernel: LinuxMemoryInputs?
        var profileRelease: OSRelease?
        if let profileNode = value(map, "profile"), let written = string(profileNode, "device.profile") {
            let reference = ProfileReference(written).resolved(against: FilePath(path).removingLastComponent().string)
            if case .bundled = reference, self.name(profileNode, "device.profile") == nil {
                // said by name(): a bundled profile is a name of [a-z0-9-]+, a file has a / or .yaml
            } else {
                do {
                    let loaded = try ProfileLibrary.load(reference)
                    profileKernel = loaded.kernel
                    profileRelease = loaded.release
                    profile = reference.description
                } catch {
                    let reasons = error.diagnostics.map { $0.line == 0 ? $0.message : $0.description }.joined(separator: "; ")
                    self.error(profileNode, "device.profile", "cannot use the profile \(Self.quote(written)): \(reasons)"
                        + (reference.description == written ? "" : " (read as \(reference.description), relative to the scenario's folder)"))
                }
            }
        }
        let content = value(map, "content").map { contentRatios($0, "device.content") } ?? [:]
        var os: OSRelease?
        var osLocation: (line: Int, column: Int)?
        if let osNode = value(map, "os") {
            // The profile's release decides the platform (no profile: an iPhone's rules); the
            // scenario may name only a release of that platform.
            let memoryRelease = profileRelease ?? .iOS12
            let releases = memoryRelease.lifeCycleReleases.map(\.rawValue)
            if let text = osNode.scalar?.string, let release = OSRelease(rawValue: text) {
                if let problem = Scenario.DeviceSpec.platformProblem(os: release, profileRelease: memoryRelease, profile: profile) {
                    error(osNode, "device.os", problem)
                } else {
                    os = release
                    osLocation = osNode.mark.map { ($0.line, $0.column) }
                }
            } else {
                error(osNode, "device.os", "unknown OS release \(describe(osNode)); releases are \(releases.joined(separator: ", "))")
            }
        }
        let memoryScale = value(map, "memory_scale").flatMap { int($0, "device.memory_scale", min: 1, max: ScenarioLimits.memoryScale) }
        var memoryModel = Scenario.DeviceSpec.MemoryModel.budget
        if let modelNode = value(map, "memory_model"), let text = string(modelNode, "device.memory_model") {
            let valid = Scenario.DeviceSpec.MemoryModel.allCases.map(\.rawValue).joined(separator: ", ")
            if let model = Scenario.DeviceSpec.MemoryModel(rawValue: text) {
                memoryModel = model
                if model == .kernel, profile != nil, profileKernel == nil {
                    error(modelNode, "device.memory_model", "the profile has no 'kernel:' section, so it cannot hold memory as the "
                        + "kernel does; use memory_model: budget, or a profile with one (pixel-3-2018, pixel-4-2019)")
                } else if model == .kernel, value(map, "profile") == nil {
                    error(modelNode, "device.memory_model", "memory_model: kernel needs a device profile with a 'kernel:' section "
                        + "(device.profile: pixel-3-2018 or pixel-4-2019)")
                }
            } else {
                error(modelNode, "device.memory_model", "unknown memory model \(Self.quote(text)); valid models are \(valid)")
            }
        }
        guard let memory else { return nil }
        var spec = Scenario.DeviceSpec(memoryBytes: memory, thresholds: thresholds, appLimitBytes: limit, profile: profile,
                                       content: content, os: os, appLimitInactiveBytes: inactiveLimit)
        spec.osLocation = osLocation
        spec.memoryScale = memoryScale ?? 1
        spec.memoryModel = memoryModel
        return spec
    }

    /// Compressibility by kind of memory (`content: { backing: 2.5, ... }`): each from 1
    /// (incompressible) to 1000; the kinds are ``MemoryContents/Kind``'s.
    mutating func contentRatios(_ node: Node, _ key: String) -> [MemoryContents.Kind: Double] {
        var content: [MemoryContents.Kind: Double] = [:]
        guard let kinds = mapping(node, key, allowed: DeviceProfile.contentKinds) else { return content }
        for (kindNode, ratioNode) in kinds {
            guard let name = kindNode.string, let kind = MemoryContents.Kind(rawValue: name) else { continue }
            guard ratioNode.scalar != nil, let ratio = ratioNode.float, ratio.isFinite, ratio >= 1, ratio <= 1000 else {
                error(ratioNode, "\(key).\(name)", "expected a compressibility from 1 (incompressible) to 1000, "
                    + "got \(describe(ratioNode))")
                continue
            }
            content[kind] = ratio
        }
        return content
    }
}
