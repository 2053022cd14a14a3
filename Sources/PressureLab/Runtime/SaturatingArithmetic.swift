/// Arithmetic on byte counts and step counts that clamps instead of trapping.
///
/// Sizes in scenarios come from users (and fuzzers): a tree of 9,000,000 views of 1 TiB
/// each must be refused with a message, not overflow. Every place that combines declared
/// sizes uses these; a saturated sum is larger than any host limit, so it is refused.
extension Int {
    /// `self + other`, clamped to `Int.min...Int.max`.
    @inlinable
    public func addingSaturating(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        guard overflow else { return sum }
        return other > 0 ? .max : .min
    }

    /// `self * other`, clamped to `Int.min...Int.max`.
    @inlinable
    public func multipliedSaturating(by other: Int) -> Int {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        guard overflow else { return product }
        return (self < 0) == (other < 0) ? .max : .min
    }
}

/// Sums that clamp instead of trapping.
extension Sequence where Element == Int {
    /// The sum of the elements, clamped to `Int.min...Int.max`.
    @inlinable
    public func saturatingSum() -> Int {
        reduce(0) { $0.addingSaturating($1) }
    }
}

/// Sums that clamp instead of trapping.
extension UInt64 {
    /// `self + other`, clamped to `UInt64.max` (device-time totals: a sum that would wrap is
    /// reported at the maximum, flagged, never modulo 2^64).
    @inlinable
    public func addingSaturating(_ other: UInt64) -> UInt64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }

    /// `self * other`, clamped to `UInt64.max`.
    @inlinable
    public func multipliedSaturating(by other: UInt64) -> UInt64 {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? .max : product
    }
}
