import PressureLab
import Yams

/// A profile's `kernel:` section: Linux's books beside the apps (``LinuxMemoryInputs``), every
/// figure with its source (docs/formats.md, "Device profile"; docs/memory-under-load.md).
///
/// ```yaml
/// kernel:
///   mem_total:   { bytes: 3761MiB, source: "..." }
///   kernel:      { bytes: 420MiB, source: "..." }
///   system_anon: { bytes: 700MiB, source: "..." }
///   system_exec: { bytes: 150MiB, source: "..." }
///   system_file: { bytes: 300MiB, source: "..." }
///   cold_cache:  { bytes: 200MiB, source: "..." }
///   watermark_scale_factor: { value: 0, source: "..." }
///   extra_free_kbytes: { value: 27337, source: "..." }
///   swappiness: { value: 100, source: "..." }
///   page_cluster: { value: 0, source: "..." }
///   balance_anon_file_reclaim: { value: true, source: "..." }
///   minfree: { levels: [72MiB, 90MiB], adj: [0, 100], source: "..." }
/// ```
extension ProfileReader {
    /// Every key of `kernel:`.
    static let kernelKeys = ["mem_total", "kernel", "system_anon", "system_exec", "system_file", "cold_cache", "min_free_kbytes",
                             "watermark_scale_factor", "extra_free_kbytes", "swappiness", "page_cluster", "balance_anon_file_reclaim",
                             "minfree"]
    /// The keys that must be there.
    static let requiredKernelKeys = ["mem_total", "kernel", "system_anon", "system_exec", "system_file", "cold_cache"]

    /// The section, or nil with diagnostics; each figure's source under its key in `sources`.
    mutating func kernel(_ node: Node, sources: inout [String: String]) -> LinuxMemoryInputs? {
        guard let map = base.mapping(node, "kernel", allowed: Self.kernelKeys) else { return nil }
        var sizes: [String: Int] = [:]
        for key in Self.requiredKernelKeys {
            guard let entry = base.required(map, key, in: node, path: "kernel"),
                  let fields = sourced(entry, "kernel.\(key)", valueKey: "bytes", sources: &sources),
                  let size = base.required(fields, "bytes", in: entry, path: "kernel.\(key)").flatMap({ base.bytes($0, "kernel.\(key).bytes") })
            else { continue }
            sizes[key] = size
        }
        func number(_ key: String, max: Int) -> Int? {
            guard let entry = base.value(map, key), let fields = sourced(entry, "kernel.\(key)", valueKey: "value", sources: &sources),
                  let valueNode = base.required(fields, "value", in: entry, path: "kernel.\(key)") else { return nil }
            return base.int(valueNode, "kernel.\(key).value", min: 0, max: max)
        }
        let minFree = number("min_free_kbytes", max: 1 << 30)
        let scale = number("watermark_scale_factor", max: 1000)
        let extra = number("extra_free_kbytes", max: 1 << 30)
        let swappiness = number("swappiness", max: 100)
        let pageCluster = number("page_cluster", max: 16)
        var balances = false
        if let entry = base.value(map, "balance_anon_file_reclaim"),
           let fields = sourced(entry, "kernel.balance_anon_file_reclaim", valueKey: "value", sources: &sources),
           let valueNode = base.required(fields, "value", in: entry, path: "kernel.balance_anon_file_reclaim") {
            balances = base.bool(valueNode, "kernel.balance_anon_file_reclaim.value") ?? false
        }
        let levels = base.value(map, "minfree").map { minfree($0, sources: &sources) } ?? []
        guard sizes.count == Self.requiredKernelKeys.count, let total = sizes["mem_total"] else { return nil }
        let inputs = LinuxMemoryInputs(memTotalBytes: total, kernelBytes: sizes["kernel"]!, systemAnonBytes: sizes["system_anon"]!,
                                       systemExecBytes: sizes["system_exec"]!, systemFileBytes: sizes["system_file"]!,
                                       coldCacheBytes: sizes["cold_cache"]!, minFreeKbytes: minFree,
                                       watermarkScaleFactor: scale ?? 10, extraFreeKbytes: extra ?? 0, swappiness: swappiness ?? 60,
                                       balancesAnonAndFile: balances, minfreeLevels: levels, pageCluster: pageCluster)
        let system = inputs.kernelBytes + inputs.systemAnonBytes + inputs.systemExecBytes + inputs.systemFileBytes + inputs.coldCacheBytes
        if system >= total, let entry = base.value(map, "mem_total") {
            base.error(entry, "kernel.mem_total", "the system's memory (\(system) bytes: kernel, system_anon, system_exec, "
                + "system_file and cold_cache) leaves nothing of mem_total (\(total) bytes) for apps")
            return nil
        }
        return inputs
    }

    /// `{ <valueKey>: ..., source: "..." }`: the mapping, its source recorded (an empty one is an error).
    private mutating func sourced(_ entry: Node, _ key: String, valueKey: String, extra: [String] = [],
                                  sources: inout [String: String]) -> Node.Mapping? {
        guard let fields = base.mapping(entry, key, allowed: [valueKey, "source"] + extra) else { return nil }
        if let sourceNode = base.required(fields, "source", in: entry, path: key), let source = base.string(sourceNode, "\(key).source") {
            if source.trimmingCharacters(in: .whitespaces).isEmpty {
                base.error(sourceNode, "\(key).source", "the source is empty; every figure names where it comes from")
            } else {
                sources[key] = source
            }
        }
        return fields
    }

    /// `minfree: { levels: [...], adj: [...], source }`: as many thresholds as adjs, thresholds rising.
    private mutating func minfree(_ entry: Node, sources: inout [String: String]) -> [LinuxMinfreeLevel] {
        guard let fields = sourced(entry, "kernel.minfree", valueKey: "levels", extra: ["adj"], sources: &sources) else { return [] }
        guard let levelsNode = base.required(fields, "levels", in: entry, path: "kernel.minfree"),
              let adjNode = base.required(fields, "adj", in: entry, path: "kernel.minfree") else { return [] }
        guard case .sequence(let levelList) = levelsNode, case .sequence(let adjList) = adjNode else {
            base.error(levelsNode, "kernel.minfree", "expected two lists, levels (sizes) and adj (oom_score_adj values)")
            return []
        }
        let sizes = levelList.compactMap { base.bytes($0, "kernel.minfree.levels") }
        let adjs = adjList.compactMap { base.int($0, "kernel.minfree.adj", min: -1000, max: 1000) }
        guard sizes.count == levelList.count, adjs.count == adjList.count else { return [] }
        guard sizes.count == adjs.count, !sizes.isEmpty else {
            base.error(adjNode, "kernel.minfree.adj", "expected as many adj values as levels (\(sizes.count)), got \(adjs.count)")
            return []
        }
        guard zip(sizes, sizes.dropFirst()).allSatisfy({ $0 < $1 }) else {
            base.error(levelsNode, "kernel.minfree.levels", "the levels must rise, as lmkd walks them from the first")
            return []
        }
        return zip(sizes, adjs).map { LinuxMinfreeLevel(minfreeBytes: $0, minimumAdj: $1) }
    }
}
