import PressureLab
import Yams

/// The script: steps, `repeat` and `random`.
extension ScenarioReader {
    /// The most steps a script may expand to (repeats and random steps counted).
    static let maximumExpandedSteps = ScenarioLimits.expandedSteps

    mutating func steps(_ node: Node, _ key: String, apps: [Scenario.AppSpec], depth: Int) -> [Scenario.Step]? {
        guard let items = node.sequence else {
            error(node, key, "expected a list of steps")
            return nil
        }
        guard depth <= 8 else {
            error(node, key, "repeats are nested more than 8 deep")
            return nil
        }
        guard visit(node, key, count: items.count) else { return nil }
        var steps: [Scenario.Step] = []
        for (index, item) in items.enumerated() {
            if let argument = Self.replayArgument(item) {
                steps += replaySteps(argument, "\(key)[\(index)].replay", apps: apps) ?? []
            } else if let step = self.step(item, "\(key)[\(index)]", apps: apps, depth: depth) {
                steps.append(step)
            }
        }
        if depth == 0 {
            let scenario = Scenario(name: "", description: "", seed: 0,
                                    device: .init(memoryBytes: 0, thresholds: .default, appLimitBytes: nil),
                                    apps: [], script: steps, path: path)
            if scenario.expandedStepCount > Self.maximumExpandedSteps {
                error(node, key, "the script expands to \(scenario.expandedStepCount) steps, more than \(Self.maximumExpandedSteps)")
            }
        }
        return steps
    }

    mutating func step(_ node: Node, _ key: String, apps: [Scenario.AppSpec], depth: Int) -> Scenario.Step? {
        let kind: String
        let argument: Node?
        if let scalar = node.scalar {
            kind = scalar.string
            argument = nil
        } else if let map = node.mapping, map.count == 1, let only = map.first, let name = only.key.string {
            kind = name
            argument = only.value
        } else {
            error(node, key, "a step is a word (home, dismiss, ...) or a mapping with one key, e.g. { push: detail }")
            return nil
        }
        let stepKey = "\(key).\(kind)"
        guard Scenario.Step.names.contains(kind) else {
            error(node, key, "unknown step '\(kind)'; valid steps are \(Scenario.Step.names.joined(separator: ", "))")
            return nil
        }
        func needs(_ what: String) -> Node? {
            guard let argument else {
                error(node, stepKey, "'\(kind)' needs \(what)")
                return nil
            }
            return argument
        }
        if let action = UserAction.Kind(rawValue: kind) {
            guard let value = actionValue(action, argument, node: node, stepKey: stepKey, apps: apps) else { return nil }
            return UserAction(action, value).map { .action($0) }
        }
        switch kind {
        case "replay":  // with its argument, read by `steps` (it expands to many steps)
            _ = needs("{ trace: FILE, user: ID, format: lsapp }")
            return nil
        case "repeat":
            guard let arg = needs("{ times: N, steps: [...] }"), let map = mapping(arg, stepKey, allowed: ["times", "steps"]) else { return nil }
            let times = required(map, "times", in: arg, path: stepKey).flatMap { int($0, "\(stepKey).times", min: 0, max: 1_000_000) }
            let inner = required(map, "steps", in: arg, path: stepKey).flatMap { steps($0, "\(stepKey).steps", apps: apps, depth: depth + 1) }
            guard let times, let inner else { return nil }
            return .repeatSteps(times: times, steps: inner)
        case "random":
            guard let arg = needs("{ steps: N, mix: { push: 4, ... } }"), let map = mapping(arg, stepKey, allowed: ["steps", "mix"]) else { return nil }
            let count = required(map, "steps", in: arg, path: stepKey).flatMap { int($0, "\(stepKey).steps", min: 0, max: Self.maximumExpandedSteps) }
            var mix: [UserAction.Kind: Double] = [:]
            if let mixNode = required(map, "mix", in: arg, path: stepKey),
               let mixMap = mapping(mixNode, "\(stepKey).mix", allowed: Scenario.randomStepKinds) {
                for (kindNode, weightNode) in mixMap {
                    guard let name = kindNode.string, let kind = UserAction.Kind(rawValue: name), kind.isDrawnAtRandom else { continue }
                    guard weightNode.scalar != nil, let weight = weightNode.float, weight >= 0, weight.isFinite else {
                        error(weightNode, "\(stepKey).mix.\(name)", "expected a weight of 0 or more, got \(describe(weightNode))")
                        continue
                    }
                    mix[kind] = weight
                }
                let sum = mix.values.reduce(0, +)
                if sum <= 0 {
                    error(mixNode, "\(stepKey).mix", "the weights add up to 0; give at least one step a weight above 0")
                } else if !sum.isFinite || sum > 1e12 {
                    error(mixNode, "\(stepKey).mix", "the weights add up to more than 1e12; use relative weights such as 4, 3, 1")
                }
            }
            guard let count else { return nil }
            return .random(steps: count, mix: mix)
        default:
            return nil
        }
    }

    /// The value after an action's name, read as its kind's ``UserAction/Argument`` says;
    /// nil (with a diagnostic) when it is missing or wrong.
    private mutating func actionValue(_ kind: UserAction.Kind, _ argument: Node?, node: Node, stepKey: String,
                                      apps: [Scenario.AppSpec]) -> UserAction.Value? {
        func needs(_ what: String) -> Node? {
            guard let argument else {
                error(node, stepKey, "'\(kind.rawValue)' needs \(what)")
                return nil
            }
            return argument
        }
        if knownNames.apps.count != apps.count {
            knownNames = (apps.map(\.name), Set(apps.flatMap { $0.screens.map(\.name) }))
        }
        switch kind.argument {
        case .none:
            if let argument { error(argument, stepKey, "'\(kind.rawValue)' takes no value") }
            return UserAction.Value.none
        case .app:
            guard let arg = needs("an app name"), let app = string(arg, stepKey) else { return nil }
            guard knownNames.apps.contains(app) else {
                if !failedApps.contains(app) {
                    error(arg, stepKey, "unknown app '\(app)'; apps: \(knownNames.apps.joined(separator: ", "))")
                }
                return nil
            }
            return .name(app)
        case .screen:
            guard let arg = needs("a screen name"), let screen = string(arg, stepKey) else { return nil }
            guard knownNames.screens.contains(screen) else {
                if !failedScreens.contains(screen) {
                    error(arg, stepKey, "unknown screen '\(screen)'; screens: \(knownNames.screens.sorted().joined(separator: ", "))")
                }
                return nil
            }
            return .name(screen)
        case .count(let defaultCount, let range):
            guard let argument else { return .integer(defaultCount) }
            return int(argument, stepKey, min: range.lowerBound, max: range.upperBound).map { .integer($0) }
        case .index(let range):
            guard let arg = needs("a tab index") else { return nil }
            return int(arg, stepKey, min: range.lowerBound, max: range.upperBound).map { .integer($0) }
        case .rows(let range):
            guard let arg = needs("a number of rows") else { return nil }
            return int(arg, stepKey, min: range.lowerBound, max: range.upperBound).map { .integer($0) }
        case .bytes:
            guard let arg = needs("a size, e.g. 2KiB"), let size = bytes(arg, stepKey) else { return nil }
            declarationSites.append((size, arg, stepKey))
            return .integer(size)
        case .seconds:
            guard let arg = needs("a duration, e.g. \(kind == .interrupt ? "5s" : "30s")") else { return nil }
            return seconds(arg, stepKey).map { .seconds($0) }
        case .level(let defaultLevel):
            guard let argument else { return .level(defaultLevel) }
            guard let name = string(argument, stepKey) else { return nil }
            let levels = PressureLevel.allCases.filter { $0 > .normal }
            guard let level = levels.first(where: { $0.description == name }) else {
                error(argument, stepKey, "unknown level '\(name)'; valid levels are \(levels.map(\.description).joined(separator: ", "))")
                return nil
            }
            return .level(level)
        }
    }
}
