import Foundation
import PressureLabHeap

/// The policies this program knows by name: the built-in ones, and those it registered.
///
/// A name read from a command line, a sweep file, a baseline or a results file is looked up
/// here. A program that adds its own policies registers them once, at start, before it reads
/// any name (the command line's entry point does, `PressureLabCommandLine`); every process
/// of a sweep is that program, so its workers know the same names.
///
/// ```swift
/// try PolicyRegistry.register(Cleanup(DropModelsFirst()))
/// Cleanup(named: "drop-models-first")   // the policy
/// ```
public enum PolicyRegistry {
    /// The policies registered, in registration order.
    private struct Registered: Sendable {
        var cleanups: [Cleanup] = []
        var terminations: [Termination] = []
    }

    private static let registered = Locked(Registered())

    /// Registers a cleanup policy written in Swift under its name.
    ///
    /// - Throws: ``PolicyError/invalidName(_:name:)`` for a name that is not `[a-z0-9-]+`,
    ///   ``PolicyError/clashesWithBuiltIn(_:name:)`` for a built-in one's name, and
    ///   ``PolicyError/alreadyRegistered(_:name:)`` for a name registered before.
    public static func register(_ policy: Cleanup) throws(PolicyError) {
        try check(policy.name, .cleanup, builtIns: Cleanup.builtIns.map(\.name))
        try registered.withLock { registered throws(PolicyError) in
            guard !registered.cleanups.contains(where: { $0.name == policy.name }) else {
                throw .alreadyRegistered(.cleanup, name: policy.name)
            }
            registered.cleanups.append(policy)
        }
    }

    /// Registers a termination policy written in Swift under its name (the same rules as
    /// for cleanup policies).
    public static func register(_ policy: Termination) throws(PolicyError) {
        try check(policy.name, .termination, builtIns: (Termination.builtIns + Termination.builtInVariants).map(\.name))
        try registered.withLock { registered throws(PolicyError) in
            guard !registered.terminations.contains(where: { $0.name == policy.name }) else {
                throw .alreadyRegistered(.termination, name: policy.name)
            }
            registered.terminations.append(policy)
        }
    }

    /// The built-in cleanup policies, then the registered ones in registration order.
    public static var cleanupPolicies: [Cleanup] { Cleanup.builtIns + registered.withLock { $0.cleanups } }
    /// The built-in termination policies, then the registered ones in registration order.
    public static var terminationPolicies: [Termination] { Termination.builtIns + registered.withLock { $0.terminations } }

    /// Every termination policy a name may pick (on a command line, in a sweep file): the
    /// built-in ones, their configurations experiments use (``Termination/builtInVariants``:
    /// `lmk-without-lmkd`, `fleet`), then the registered ones.
    public static var terminationNames: [Termination] {
        Termination.builtIns + Termination.builtInVariants + registered.withLock { $0.terminations }
    }

    /// The cleanup policy of that name, built in or registered.
    public static func cleanup(named name: String) -> Cleanup? {
        Cleanup.builtIns.first { $0.name == name } ?? registered.withLock { $0.cleanups.first { $0.name == name } }
    }

    /// The termination policy of that name, built in or registered.
    public static func termination(named name: String) -> Termination? {
        (Termination.builtIns + Termination.builtInVariants).first { $0.name == name }
            ?? registered.withLock { $0.terminations.first { $0.name == name } }
    }

    /// Checks a policy written in Swift before it runs or is registered: its name is
    /// `[a-z0-9-]+` and is not a built-in one's (results would not tell them apart).
    public static func check(_ policy: Cleanup) throws(PolicyError) {
        guard !policy.isBuiltIn else { return }
        try check(policy.name, .cleanup, builtIns: Cleanup.builtIns.map(\.name))
    }

    /// Checks a termination policy written in Swift (as ``check(_:)-(Cleanup)``).
    public static func check(_ policy: Termination) throws(PolicyError) {
        guard !policy.isBuiltIn else { return }
        try check(policy.name, .termination, builtIns: (Termination.builtIns + Termination.builtInVariants).map(\.name))
    }

    private static func check(_ name: String, _ kind: PolicyError.Kind, builtIns: [String]) throws(PolicyError) {
        guard !name.isEmpty, name.utf8.allSatisfy({ ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 45 }) else {
            throw .invalidName(kind, name: name)
        }
        if builtIns.contains(name) { throw .clashesWithBuiltIn(kind, name: name) }
    }

    /// Forgets every registered policy (tests that register their own).
    static func removeRegistered() { registered.withLock { $0 = Registered() } }
}

/// Why a policy cannot be named or run.
public enum PolicyError: Error, Equatable, CustomStringConvertible {
    /// Which kind of policy.
    public enum Kind: String, Sendable, Equatable {
        /// A cleanup or a termination policy.
        case cleanup, termination
    }

    /// No policy of that name is known to this program (the known names listed).
    case unknown(Kind, name: String, known: [String])
    /// A policy written in Swift has a name that is not `[a-z0-9-]+`.
    case invalidName(Kind, name: String)
    /// A policy written in Swift has a built-in policy's name.
    case clashesWithBuiltIn(Kind, name: String)
    /// A policy of that name was registered before.
    case alreadyRegistered(Kind, name: String)
    /// A policy returned an action or a plan the device could not carry out (located:
    /// ``PolicyMistake``).
    case mistake(PolicyMistake)

    public var description: String {
        switch self {
        case .mistake(let mistake):
            return mistake.description
        case .unknown(let kind, let name, let known):
            return "no \(kind.rawValue) policy named '\(name)' in this program; known: \(known.joined(separator: ", "))"
        case .invalidName(let kind, let name):
            return "the \(kind.rawValue) policy name '\(name)' is not valid: names match [a-z0-9-]+"
        case .clashesWithBuiltIn(let kind, let name):
            return "the \(kind.rawValue) policy '\(name)' has a built-in policy's name: results could not tell them apart; "
                + "give it a name of its own"
        case .alreadyRegistered(let kind, let name):
            return "a \(kind.rawValue) policy named '\(name)' is registered already"
        }
    }
}
