import PressureLab

/// A cleanup policy of our own: on a warning, every off-screen controller gives back its
/// model and its cache, and keeps its views and bitmaps (cheap to keep, slow to redraw).
public struct DropModelsFirst: CleanupPolicy, Sendable {
    public let name = "drop-models-first"
    public init() {}

    public func plan(for context: CleanupContext) -> CleanupPlan {
        var plan = CleanupPlan()
        for state in context.controllers where !state.isOnScreen {
            if state.holds(.model) { plan.release(.model, of: state.id) }
            if state.holds(.cache) { plan.release(.cache, of: state.id) }
        }
        return plan
    }
}
