import Foundation
import PressureLab
import PressureLabHeap
import SystemPackage
import Yams

/// Reads device profiles (format version 1). Every problem is reported with its file, line,
/// column and key and what would be valid, as for scenarios (``ScenarioError``, exit 65).
package struct ProfileLoader: Sendable {
    package init() {}

    /// Loads and checks the profile file at `path`.
    package func load(path: String) throws(ScenarioError) -> DeviceProfile {
        try parse(try ScenarioLoader.text(of: path, kind: .profile), path: path)
    }

    /// Parses and checks profile text; `path` names it in errors.
    package func parse(_ text: String, path: String) throws(ScenarioError) -> DeviceProfile {
        let root = try ScenarioLoader.compose(text, path: path, whenEmpty: "the profile is empty")
        var reader = ProfileReader(base: ScenarioReader(path: path, hostLimitBytes: .max))
        let profile = reader.profile(root, path: path, hash: Self.hash(text))
        guard reader.base.diagnostics.isEmpty, let profile else {
            throw ScenarioError(diagnostics: reader.base.diagnostics.sorted { ($0.line, $0.column) < ($1.line, $1.column) })
        }
        return profile
    }

    /// FNV-1a (64 bit) of the file's bytes, in hex: names the exact profile a result used.
    static func hash(_ text: String) -> String {
        String(text.hashValueStable, radix: 16)
    }
}

/// Walks a profile's YAML, collecting diagnostics (the typed reads are the scenario reader's).
struct ProfileReader {
    var base: ScenarioReader

    static let topKeys = ["profile", "name", "description", "platform", "release", "memory", "budget", "page", "compressor", "costs",
                          "content", "display", "zram", "kernel"]

    mutating func profile(_ root: Node, path: String, hash: String) -> DeviceProfile? {
        guard let top = base.mapping(root, "", allowed: Self.topKeys) else { return nil }
        if let version = base.required(top, "profile", in: root, path: ""), version.wholeNumber != 1 {
            base.error(version, "profile", "unsupported profile format \(base.describe(version)); this build reads version 1")
        }
        let name = base.required(top, "name", in: root, path: "").flatMap { base.name($0, "name") }
        let description = base.value(top, "description").flatMap { base.string($0, "description") } ?? ""
        let platform = base.required(top, "platform", in: root, path: "").flatMap { node -> DeviceProfile.Platform? in
            guard let text = base.string(node, "platform") else { return nil }
            guard let platform = DeviceProfile.Platform(rawValue: text) else {
                base.error(node, "platform", "unknown platform '\(text)'; valid platforms are ios, android")
                return nil
            }
            return platform
        }
        let release = platform.flatMap { platform in
            base.value(top, "release").map { self.release($0, kernel: platform.kernel) }
                ?? OSRelease.defaultRelease(of: platform.kernel)
        }
        let memory = base.required(top, "memory", in: root, path: "").flatMap { positiveBytes($0, "memory") }
        let budget = base.required(top, "budget", in: root, path: "").flatMap { positiveBytes($0, "budget") }
        if let memory, let budget, budget > memory, let node = base.value(top, "budget") {
            base.error(node, "budget", "the budget (\(budget) bytes) is more than the device's memory (\(memory) bytes)")
        }
        let page = base.value(top, "page").flatMap { pageSize($0, "page") } ?? 4096
        let compressor = base.value(top, "compressor").flatMap { self.compressor($0, "compressor") } ?? Compressor.none
        let costsNode = base.required(top, "costs", in: root, path: "")
        let (costs, sources) = costsNode.map { self.costs($0) } ?? (nil, [:])
        let content = base.value(top, "content").map { base.contentRatios($0, "content") } ?? [:]
        let displayScale = base.value(top, "display").flatMap { display($0) }
        let zram = base.value(top, "zram").flatMap { node -> Int? in
            guard let size = base.bytes(node, "zram") else { return nil }
            guard size > 0 else {
                base.error(node, "zram", "the zram device's size must be more than 0 bytes (leave 'zram' out for none)")
                return nil
            }
            return size
        }
        var kernelSources: [String: String] = [:]
        let kernel = base.value(top, "kernel").flatMap { self.kernel($0, sources: &kernelSources) }
        guard let name, let platform, let release, let memory, let budget, let costs else { return nil }
        var profile = DeviceProfile(name: name, description: description, platform: platform, release: release, memoryBytes: memory,
                                    budgetBytes: budget,
                                    pageBytes: page, compressor: compressor, costs: costs, sources: sources, content: content,
                                    path: path, hash: hash, displayScale: displayScale, zramBytes: zram)
        profile.kernel = kernel
        profile.kernelSources = kernelSources
        return profile
    }

    /// `display: { scale: S }`: pixels a point, more than 0 and at most 10 (`import views`
    /// takes frames in points at this scale).
    mutating func display(_ node: Node) -> Double? {
        guard let map = base.mapping(node, "display", allowed: ["scale"]) else { return nil }
        guard let scaleNode = base.required(map, "scale", in: node, path: "display") else { return nil }
        guard scaleNode.scalar != nil, let value = scaleNode.float, value.isFinite, value > 0, value <= 10 else {
            base.error(scaleNode, "display.scale", "expected a display scale (pixels a point) greater than 0 and at most 10, "
                + "such as 3 or 2.625, got \(base.describe(scaleNode))")
            return nil
        }
        return value
    }

    /// A release number of the platform's (`release: 12`); nil, with a diagnostic naming the
    /// valid ones, otherwise.
    mutating func release(_ node: Node, kernel: Kernel) -> OSRelease? {
        let valid = OSRelease.memoryRuleReleases(of: kernel)
        guard let text = node.scalar?.string, let release = valid.first(where: { $0.number == text }) else {
            base.error(node, "release", "unknown \(kernel.platformDescription) release \(base.describe(node)); "
                + "modelled releases are \(valid.map(\.number).joined(separator: ", "))")
            return nil
        }
        return release
    }

    mutating func positiveBytes(_ node: Node, _ key: String) -> Int? {
        guard let value = base.bytes(node, key) else { return nil }
        guard value > 0 else {
            base.error(node, key, "\(value) bytes: it must be more than 0")
            return nil
        }
        return value
    }

    /// A page size: a power of two from 512 B to 64 KiB (the codecs and the compressed page
    /// headers work in pages well under 2 GiB).
    mutating func pageSize(_ node: Node, _ key: String) -> Int? {
        guard let value = base.bytes(node, key) else { return nil }
        guard value >= 512, value <= 65_536, value & (value - 1) == 0 else {
            base.error(node, key, "\(value) bytes: a page is a power of two from 512B to 64KiB (e.g. 4KiB, 16KiB)")
            return nil
        }
        return value
    }

    mutating func compressor(_ node: Node, _ key: String) -> Compressor? {
        guard let text = base.string(node, key) else { return nil }
        guard let value = Compressor(rawValue: text) else {
            base.error(node, key, "unknown compressor '\(text)'; valid compressors are none, lz4, zstd")
            return nil
        }
        return value
    }

    mutating func duration(_ node: Node, _ key: String) -> UInt64? {
        guard let scalar = node.scalar else {
            base.error(node, key, "expected a duration such as 150ms, got \(base.describe(node))")
            return nil
        }
        switch Quantities.nanoseconds(scalar.string) {
        case .success(let value): return value
        case .failure(let failure):
            base.error(node, key, failure.message)
            return nil
        }
    }

    mutating func throughput(_ node: Node, _ key: String) -> UInt64? {
        guard let scalar = node.scalar else {
            base.error(node, key, "expected a throughput such as 500MiB/s, got \(base.describe(node))")
            return nil
        }
        switch Quantities.bytesPerSecond(scalar.string) {
        case .success(let value): return UInt64(value)
        case .failure(let failure):
            base.error(node, key, failure.message)
            return nil
        }
    }

    /// Every cost (``Cost/allCases``), each with its source and the fields its kind has
    /// (``Cost/Kind/fields``); nil (with diagnostics) when one is missing or bad.
    mutating func costs(_ node: Node) -> (CostModel?, [String: String]) {
        guard let map = base.mapping(node, "costs", allowed: DeviceProfile.costNames) else { return (nil, [:]) }
        var values: [Cost: CostModel.Value] = [:]
        var sources: [String: String] = [:]
        for cost in Cost.allCases {
            let name = cost.rawValue, key = "costs.\(name)"
            guard let entry = base.required(map, name, in: node, path: "costs") else { continue }
            guard let fields = base.mapping(entry, key, allowed: cost.kind.fields + ["source"]) else { continue }
            if let sourceNode = base.required(fields, "source", in: entry, path: key), let source = base.string(sourceNode, "\(key).source") {
                if source.trimmingCharacters(in: .whitespaces).isEmpty {
                    base.error(sourceNode, "\(key).source", "the source is empty; every cost names where it comes from")
                } else {
                    sources[name] = source
                }
            }
            values[cost] = value(of: cost.kind, fields, entry: entry, key: key)
        }
        guard values.count == Cost.allCases.count, sources.count == Cost.allCases.count else { return (nil, sources) }
        return (CostModel(values), sources)
    }

    /// The value of one cost entry, read as its kind says; nil (with diagnostics) when a
    /// required field is missing or bad.
    mutating func value(of kind: Cost.Kind, _ fields: Node.Mapping, entry: Node, key: String) -> CostModel.Value? {
        switch kind {
        case .time:
            return base.required(fields, "time", in: entry, path: key).flatMap { duration($0, "\(key).time") }.map { .time($0) }
        case .throughput:
            return base.required(fields, "throughput", in: entry, path: key).flatMap { throughput($0, "\(key).throughput") }
                .map { .throughput($0) }
        case .transfer:
            let rate = base.required(fields, "throughput", in: entry, path: key).flatMap { throughput($0, "\(key).throughput") }
            let latency = base.value(fields, "latency").flatMap { duration($0, "\(key).latency") } ?? 0
            return rate.map { .transfer(CostModel.Transfer(bytesPerSecond: $0, latencyNanoseconds: latency)) }
        case .perCompressor:
            var rates: [Compressor: UInt64] = [:]
            for name in kind.fields {
                guard let compressor = Compressor(rawValue: name) else { continue }
                if let rate = base.required(fields, name, in: entry, path: key).flatMap({ throughput($0, "\(key).\(name)") }) {
                    rates[compressor] = rate
                }
            }
            guard rates.count == kind.fields.count else { return nil }
            return .perCompressor(CostModel.PerCompressor(lz4: rates[.lz4] ?? 0, zstd: rates[.zstd] ?? 0))
        }
    }
}
