import PressureLab
import Yams

/// An app's behaviour in the background: `background:` (a mode or a task).
extension ScenarioReader {
    /// `audio`, `location` (optionally `:DURATION`, how long it lasts) or `task:DURATION`.
    mutating func backgroundMode(_ node: Node, _ key: String) -> BackgroundMode? {
        let usage = "expected audio, location or task:DURATION (e.g. task:30s; audio:20m for playback that stops)"
        guard let text = node.scalar?.string else {
            error(node, key, "\(usage), got \(describe(node))")
            return nil
        }
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        var duration: Double?
        if parts.count == 2 {
            switch Quantities.seconds(parts[1]) {
            case .success(let seconds): duration = seconds
            case .failure(let failure):
                error(node, key, failure.message)
                return nil
            }
        }
        switch parts.first {
        case "audio": return .audio(seconds: duration)
        case "location": return .location(seconds: duration)
        case "task":
            guard let duration else {
                error(node, key, "a task needs its duration, e.g. task:30s")
                return nil
            }
            return .task(seconds: duration)
        default:
            error(node, key, "\(usage), got \(describe(node))")
            return nil
        }
    }
}
