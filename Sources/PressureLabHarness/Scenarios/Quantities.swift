/// Sizes with units (`512B`, `16KiB`, `2MiB`, `1.5GiB`, `4KB`) and durations (`30s`, `250ms`, `5m`).
package enum Quantities {
    /// The largest size a scenario may name (1 TiB): more is a typo, not a phone.
    static let maximumBytes = 1 << 40

    static let byteUnits: [(suffix: String, factor: Double)] = [
        ("GiB", 1_073_741_824), ("MiB", 1_048_576), ("KiB", 1024),
        ("GB", 1_000_000_000), ("MB", 1_000_000), ("KB", 1000), ("B", 1),
    ]

    /// Bytes, or a reason the text is not a size (also `import --memory`).
    package static func bytes(_ text: String) -> Result<Int, QuantityError> {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        var number = Substring(trimmed)
        var factor = 1.0
        for (suffix, value) in byteUnits where trimmed.hasSuffix(suffix) {
            number = trimmed.dropLast(suffix.count)
            factor = value
            break
        }
        guard let value = Double(number.trimmingCharacters(in: .whitespaces)), value.isFinite else {
            return .failure(QuantityError("'\(text)' is not a size; write a number with a unit: B, KiB, MiB, GiB (e.g. 2MiB)"))
        }
        guard value >= 0 else { return .failure(QuantityError("'\(text)' is negative; sizes are 0 or more")) }
        let bytes = value * factor
        guard bytes <= Double(maximumBytes) else {
            return .failure(QuantityError("'\(text)' is more than 1 TiB, the largest size a scenario may name"))
        }
        return .success(Int(bytes))
    }

    /// Bytes per second (`500MiB/s`, `1.5GB/s`), or a reason the text is not a throughput.
    static func bytesPerSecond(_ text: String) -> Result<Int, QuantityError> {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasSuffix("/s") else {
            return .failure(QuantityError("'\(text)' is not a throughput; write a size per second, e.g. 500MiB/s"))
        }
        switch bytes(String(trimmed.dropLast(2))) {
        case .success(let value):
            guard value > 0 else { return .failure(QuantityError("'\(text)' is zero; a throughput must be more than 0")) }
            return .success(value)
        case .failure:
            return .failure(QuantityError("'\(text)' is not a throughput; write a size per second, e.g. 500MiB/s"))
        }
    }

    /// Nanoseconds (`150ms`, `20us`, `800ns`, `1.5s`), or a reason the text is not a duration.
    static func nanoseconds(_ text: String) -> Result<UInt64, QuantityError> {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let units: [(String, Double)] = [("ns", 1), ("us", 1e3), ("ms", 1e6), ("s", 1e9)]
        for (suffix, factor) in units where trimmed.hasSuffix(suffix) {
            guard let value = Double(trimmed.dropLast(suffix.count)), value.isFinite else { break }
            guard value >= 0 else { return .failure(QuantityError("'\(text)' is negative; durations are 0 or more")) }
            guard value * factor <= 3.6e12 else { return .failure(QuantityError("'\(text)' is longer than an hour")) }
            return .success(UInt64((value * factor).rounded()))
        }
        return .failure(QuantityError("'\(text)' is not a duration; write a number with a unit: ns, us, ms, s (e.g. 150ms)"))
    }

    /// Seconds, or a reason the text is not a duration.
    static func seconds(_ text: String) -> Result<Double, QuantityError> {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
        for (suffix, factor) in units where trimmed.hasSuffix(suffix) {
            if let value = Double(trimmed.dropLast(suffix.count)), value.isFinite {
                guard value >= 0 else { return .failure(QuantityError("'\(text)' is negative; durations are 0 or more")) }
                guard value * factor <= 365 * 86400 else { return .failure(QuantityError("'\(text)' is longer than a year")) }
                return .success(value * factor)
            }
        }
        return .failure(QuantityError("'\(text)' is not a duration; write a number with a unit: ms, s, m, h (e.g. 30s)"))
    }
}

/// Why a text is not a quantity.
package struct QuantityError: Error {
    /// What is wrong and what would be valid.
    package var message: String
    init(_ message: String) { self.message = message }
}

import Foundation
