/// The names nearest a misspelt one, for messages that say what was probably meant
/// ("unknown key 'visble_rows' (did you mean 'visible_rows'?)").
package enum ClosestNames {
    /// The candidates within a few edits of `name` (insertions, deletions, substitutions,
    /// counted on characters), nearest first, at most `limit`; a candidate that starts with
    /// `name` (its first letters typed) counts as near too. Empty when none is close.
    ///
    /// - Complexity: O(*n* × *m* × *k*) for *k* candidates of length *m* and a name of length *n*.
    package static func closest(to name: String, in candidates: [String], limit: Int = 3) -> [String] {
        let typed = Array(name.lowercased())
        let allowed = max(1, min(3, typed.count / 3))
        var near: [(distance: Int, name: String)] = []
        for candidate in candidates where candidate != name {
            let distance = editDistance(typed, Array(candidate.lowercased()))
            let prefix = typed.count >= 3 && candidate.hasPrefix(name)
            if distance <= allowed || prefix { near.append((distance, candidate)) }
        }
        return near.sorted { ($0.distance, $0.name) < ($1.distance, $1.name) }.prefix(limit).map(\.name)
    }

    /// Levenshtein's distance between two character arrays.
    package static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// " (did you mean 'a'?)" or " (did you mean 'a' or 'b'?)", empty when nothing is close.
    package static func suggestion(for name: String, in candidates: [String]) -> String {
        let near = closest(to: name, in: candidates)
        guard !near.isEmpty else { return "" }
        let quoted = near.map { "'\($0)'" }
        let listed = quoted.count == 1 ? quoted[0] : quoted.dropLast().joined(separator: ", ") + " or " + quoted.last!
        return " (did you mean \(listed)?)"
    }
}
