/// Errors from the heap layer: what failed, and what to do about it.
public enum HeapError: Error, Equatable, CustomStringConvertible {
    /// The process does not allocate through jemalloc (the library was not linked, or
    /// another allocator was interposed ahead of it). Measurements would be wrong.
    case notRunningOnJemalloc(detail: String)
    /// A `mallctl` call returned an error code (an errno value).
    case mallctlFailed(name: String, code: Int32)
    /// jemalloc was built without statistics, so nothing can be measured.
    case statisticsDisabled

    public var description: String {
        switch self {
        case .notRunningOnJemalloc(let detail):
            return "PressureLab measures memory through jemalloc, but this process does not allocate "
                + "through it (\(detail)). Install libjemalloc-dev (apt-get install -y libjemalloc-dev) "
                + "and rebuild, so that the jemalloc library is linked and replaces malloc."
        case .mallctlFailed(let name, let code):
            return "jemalloc control '\(name)' failed with error code \(code)"
        case .statisticsDisabled:
            return "jemalloc was built without statistics (config.stats is false); "
                + "PressureLab needs a build with --enable-stats (Debian's libjemalloc has it)"
        }
    }
}
