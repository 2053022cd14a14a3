/// Actions drawn at random from a weighted mix (a scenario's `random` step).
extension UserAction {
    /// The range a drawn `type` action's size is drawn from, bytes.
    public static let randomTypeBytes = 64...4096

    /// Draws one action from `mix` (weights by kind), its argument from the seed: an app
    /// among `apps`, a screen among `screens` (the foreground app's; with none, a launch).
    ///
    /// The order of the draws is part of every seeded run's timeline: kinds are weighed in
    /// name order, then the argument is drawn. Kinds that are not drawn at random
    /// (``Kind/isDrawnAtRandom``) are drawn as nothing: nil.
    public static func draw(from mix: [Kind: Double], apps: [String], screens: [String],
                            using random: inout SplitMix64) -> UserAction? {
        draw(from: WeighedMix(mix), apps: apps, screens: screens, using: &random)
    }

    /// A mix's kinds in name order with their weights and total, as `draw(from:apps:screens:using:)`
    /// weighs them: made once for a `random` step's draws rather than sorted and looked up
    /// by hash on each.
    public struct WeighedMix: Sendable {
        let kinds: [(kind: Kind, weight: Double)]
        let total: Double

        /// A mix of kinds, each drawn in proportion to its weight.
        public init(_ mix: [Kind: Double]) {
            let names = mix.keys.sorted()
            kinds = names.map { ($0, mix[$0]!) }
            total = names.reduce(0) { $0 + mix[$1]! }
        }
    }

    /// ``draw(from:apps:screens:using:)`` with the mix weighed beforehand: the same draws.
    public static func draw(from mix: WeighedMix, apps: [String], screens: [String],
                            using random: inout SplitMix64) -> UserAction? {
        guard let last = mix.kinds.last?.kind else { return nil }
        var pick = Double.random(in: 0..<mix.total, using: &random)
        var kind = last
        for candidate in mix.kinds {
            pick -= candidate.weight
            if pick < 0 { kind = candidate.kind; break }
        }
        func screenOrLaunch(_ show: (String) -> UserAction) -> UserAction {
            screens.isEmpty ? .launch(apps.randomElement(using: &random)!) : show(screens.randomElement(using: &random)!)
        }
        switch kind {
        case .push: return screenOrLaunch { .push($0) }
        case .present: return screenOrLaunch { .present($0) }
        case .pop: return .pop(1)
        case .popToRoot: return .popToRoot
        case .selectTab: return .selectTab(Int.random(in: 0..<5, using: &random))
        case .switchTo: return .switchTo(apps.randomElement(using: &random)!)
        case .dismiss: return .dismiss
        case .warning: return .warning(Int.random(in: 0..<4, using: &random) == 0 ? .critical : .warning)
        case .type: return .type(Int.random(in: randomTypeBytes, using: &random))
        case .scroll: return .scroll(Int.random(in: -5...20, using: &random))
        case .home: return .home
        case .idle: return .idle(Double(Int.random(in: 1...30, using: &random)))
        default: return nil
        }
    }
}
