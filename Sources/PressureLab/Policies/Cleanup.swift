/// A cleanup policy as everything outside an app's runtime names it: plans, comparisons,
/// results, baselines, sweeps, the command line and the test API. One of the built-in
/// policies (``ios6``, ``lru``, ...) or one written in Swift:
///
/// ```swift
/// let plan = RunPlan(scenarios: [scenario], policies: [.ios6, Cleanup(DropModelsFirst())])
/// ```
///
/// Two values with the same ``name`` are the same policy (results and baselines compare
/// names). A value read back from a file (a results file, a baseline, a sweep's record)
/// carries its policy when this program knows the name: a built-in one, or one registered
/// with ``PolicyRegistry``; otherwise only its name, and running it is an error
/// (``PolicyError/unknown(_:name:known:)``).
public struct Cleanup: Sendable, CustomStringConvertible {
    /// The policy's name in results and on command lines (`[a-z0-9-]+`).
    public let name: String
    /// Whether it is one of PressureLab's own policies.
    public let isBuiltIn: Bool
    /// Makes a fresh instance for a run (nil: only the name is known here).
    private let maker: (@Sendable () -> any CleanupPolicy)?

    /// A policy written in Swift: each run gets a copy of `policy`.
    public init(_ policy: some CleanupPolicy & Sendable) {
        self.init(name: policy.name, isBuiltIn: false) { policy }
    }

    /// A policy written in Swift, made afresh for each run (a policy that keeps state).
    public init(name: String, make: @escaping @Sendable () -> any CleanupPolicy) {
        self.init(name: name, isBuiltIn: false, make: make)
    }

    package init(name: String, isBuiltIn: Bool, make: (@Sendable () -> any CleanupPolicy)?) {
        self.name = name
        self.isBuiltIn = isBuiltIn
        self.maker = make
    }

    /// The policy of that name: a built-in one, else one this program registered
    /// (``PolicyRegistry/register(_:)-(Cleanup)``); nil when neither has it.
    public init?(named name: String) {
        guard let known = PolicyRegistry.cleanup(named: name) else { return nil }
        self = known
    }

    /// A new instance of the policy for a run.
    ///
    /// - Throws: ``PolicyError/unknown(_:name:known:)`` when only the name is known here (read
    ///   from a file written by a program that registered it).
    public func makePolicy() throws(PolicyError) -> any CleanupPolicy {
        guard let maker else {
            throw .unknown(.cleanup, name: name, known: PolicyRegistry.cleanupPolicies.map(\.name))
        }
        return maker()
    }

    /// The UIKit generation the policy's apps behave as (their callbacks): the policy's
    /// own (``CleanupPolicy/generation``), else iOS 6 and later.
    public var generation: OSRelease { ((try? makePolicy())?.generation) ?? .iOS6 }

    public var description: String { name }

    // MARK: - Built in

    /// Keeps everything: the baseline that frees nothing.
    public static let keepAll = Cleanup(name: "keep-all", isBuiltIn: true) { KeepAllPolicy() }
    /// iPhone OS 2.2's unload cycle (``IOS2Policy``).
    public static let ios2 = Cleanup(name: "ios2", isBuiltIn: true) { IOS2Policy() }
    /// iPhone OS 3 to iOS 5's unload cycle (``IOS3Policy``).
    public static let ios3 = Cleanup(name: "ios3", isBuiltIn: true) { IOS3Policy() }
    /// iOS 6 and later: bitmaps and caches of off-screen controllers (``IOS6Policy``).
    public static let ios6 = Cleanup(name: "ios6", isBuiltIn: true) { IOS6Policy() }
    /// Everything an off-screen controller can give back (``AggressivePolicy``).
    public static let aggressive = Cleanup(name: "aggressive", isBuiltIn: true) { AggressivePolicy() }
    /// Keeps the views of the two most recently shown off-screen controllers (``LRUPolicy``).
    public static let lru = Cleanup(name: "lru", isBuiltIn: true) { LRUPolicy() }
    /// The cheapest releases, by measured reload cost, that free the target (``CostAwarePolicy``).
    public static let costAware = Cleanup(name: "cost-aware", isBuiltIn: true) { CostAwarePolicy() }

    /// Every built-in policy, in the order reports list them.
    public static let builtIns: [Cleanup] = [.keepAll, .ios2, .ios3, .ios6, .aggressive, .lru, .costAware]
}

extension Cleanup: Hashable {
    public static func == (lhs: Cleanup, rhs: Cleanup) -> Bool { lhs.name == rhs.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

extension Cleanup: Codable {
    /// Written as its name.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }

    /// Read from its name: the policy itself when this program knows the name, else the name alone.
    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        self = Cleanup(named: name) ?? Cleanup(name: name, isBuiltIn: false, make: nil)
    }
}
