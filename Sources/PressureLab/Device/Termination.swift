/// A termination policy as everything outside a device names it: plans, the device
/// experiment's configurations, results, baselines, sweeps, the command line and the test
/// API. One of the built-in policies (``jetsam``, ``lmk``, ...) or one written in Swift:
///
/// ```swift
/// let plan = RunPlan(scenarios: [scenario], policies: [.ios6], termination: Termination(OldestFirst()))
/// ```
///
/// Two values with the same ``name`` are the same policy. A value read back from a file
/// carries its policy when this program knows the name (built in, or registered with
/// ``PolicyRegistry``); otherwise only its name, and running it is an error.
public struct Termination: Sendable, CustomStringConvertible {
    /// The policy's name in results and on command lines (`[a-z0-9-]+`).
    public let name: String
    /// Whether it is one of PressureLab's own policies.
    public let isBuiltIn: Bool
    private let maker: (@Sendable () -> any TerminationPolicy)?

    /// A policy written in Swift: each run gets a copy of `policy`.
    public init(_ policy: some TerminationPolicy & Sendable) {
        self.init(name: policy.name, isBuiltIn: false) { policy }
    }

    /// A policy written in Swift, made afresh for each run (a policy that keeps state).
    public init(name: String, make: @escaping @Sendable () -> any TerminationPolicy) {
        self.init(name: name, isBuiltIn: false, make: make)
    }

    package init(name: String, isBuiltIn: Bool, make: (@Sendable () -> any TerminationPolicy)?) {
        self.name = name
        self.isBuiltIn = isBuiltIn
        self.maker = make
    }

    /// The policy of that name: a built-in one, else one this program registered; nil when
    /// neither has it.
    public init?(named name: String) {
        guard let known = PolicyRegistry.termination(named: name) else { return nil }
        self = known
    }

    /// A new instance of the policy for a run.
    ///
    /// - Throws: ``PolicyError/unknown(_:name:known:)`` when only the name is known here.
    public func makePolicy() throws(PolicyError) -> any TerminationPolicy {
        guard let maker else {
            throw .unknown(.termination, name: name, known: PolicyRegistry.terminationPolicies.map(\.name))
        }
        return maker()
    }

    public var description: String { name }

    // MARK: - Built in

    /// No termination: over budget is an out-of-memory crash (``NoTermination``).
    public static let noTermination = Termination(name: "none", isBuiltIn: true) { NoTermination() }
    /// XNU's jetsam, rule by rule for the profile's release (``JetsamPolicy``).
    public static let jetsam = Termination(name: "jetsam", isBuiltIn: true) { JetsamPolicy() }
    /// Android's ActivityManager and lmkd (``LowMemoryKillerPolicy``).
    public static let lmk = Termination(name: "lmk", isBuiltIn: true) { LowMemoryKillerPolicy() }
    /// Android with lmkd's kill path disabled, as Fleet's phone ran: ActivityManager's cached
    /// limit and the kernel's OOM killer kill (``LowMemoryKillerPolicy/init(lmkdKills:backgroundCollection:)``).
    public static let lmkWithoutLmkd = Termination(name: "lmk-without-lmkd", isBuiltIn: true) {
        LowMemoryKillerPolicy(lmkdKills: false)
    }
    /// Fleet's policy as its phone ran it (ASPLOS 2024): its runtime keeps the heap's hot objects
    /// in memory and leaves the cold ones to swap, its background collector reading only what
    /// was allocated there (``BackgroundCollection/hotObjectsOnly``); lmkd's kill path disabled
    /// as in Fleet's other configurations.
    public static let fleet = Termination(name: "fleet", isBuiltIn: true) {
        LowMemoryKillerPolicy(lmkdKills: false, backgroundCollection: .hotObjectsOnly)
    }
    /// The largest background app first (``LargestFirstPolicy``).
    public static let largestFirst = Termination(name: "largest-first", isBuiltIn: true) { LargestFirstPolicy() }
    /// XNU's freezer before jetsam (``FreezePolicy``).
    public static let freeze = Termination(name: "freeze", isBuiltIn: true) { FreezePolicy() }

    /// Every built-in policy, in the order lists give them (what `all` means in a sweep file).
    public static let builtIns: [Termination] = [.noTermination, .jetsam, .lmk, .largestFirst, .freeze]
    /// Built-in configurations of those policies that experiments use, known by name too
    /// (``lmkWithoutLmkd``) but not listed among the policies.
    public static let builtInVariants: [Termination] = [.lmkWithoutLmkd, .fleet]

    /// A note when this built-in policy is another platform's than `release`'s (a what-if on
    /// that device), else nil. Android ships no memory freezer: `freeze` there is XNU's.
    public func whatIfNote(on release: OSRelease) -> String? {
        release.memorySystem.whatIfNote(policy: name, on: release)
    }
}

extension Termination: Hashable {
    public static func == (lhs: Termination, rhs: Termination) -> Bool { lhs.name == rhs.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

extension Termination: Codable {
    /// Written as its name.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }

    /// Read from its name: the policy itself when this program knows the name, else the name alone.
    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        self = Termination(named: name) ?? Termination(name: name, isBuiltIn: false, make: nil)
    }
}
