/// Device time broken down by cost (docs/formats.md, "Results": `deviceTimeByCostNs`).
extension CostModel {
    /// The device time of `work`, cost by cost, as ``nanoseconds(of:for:compressor:)``
    /// prices each: only the costs whose time is more than 0. Each figure saturates on its
    /// own; their sum (saturating) is ``nanoseconds(for:compressor:)``.
    public func nanosecondsByCost(for work: WorkCounters, compressor: Compressor = .none) -> [Cost: UInt64] {
        var byCost: [Cost: UInt64] = [:]
        for cost in Cost.allCases {
            let nanoseconds = nanoseconds(of: cost, for: work, compressor: compressor)
            if nanoseconds > 0 { byCost[cost] = nanoseconds }
        }
        return byCost
    }
}
