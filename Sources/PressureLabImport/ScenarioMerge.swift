import PressureLab
import PressureLabHarness

/// `--merge`: an imported app (or screen) added to an existing scenario as text, so that the
/// file's comments and layout stay as they are. Block-style sections only (`apps:` with one
/// app a line block); the result is checked by the scenario reader.
enum ScenarioMerge {
    /// The scenario text with the imported app appended to `apps:` and a `launch` of it to
    /// `script:`; or, when the scenario already has an app of the imported app's name, the
    /// imported screen appended to that app's `screens:` (the script left as it is).
    static func merge(_ imported: ImportedScenario, into text: String, path: String, requestedProfile: String? = nil,
                      loader: ScenarioLoader) throws(ImportError) -> String {
        let existing: Scenario
        do {
            existing = try loader.parse(text, path: path)
        } catch {
            let first = error.diagnostics.first
            throw ImportError(path: path, line: first?.line ?? 0, "expected a valid scenario to merge into, found: "
                + error.diagnostics.map(\.message).joined(separator: "; "))
        }
        if let requestedProfile {
            // The merge keeps the scenario's device: a different --profile would be ignored, so it is refused.
            let requested = ProfileReference(requestedProfile).resolved(against: ".")
            let own = existing.device.profile.map { ProfileReference($0).resolved(against: ".") }
            guard own == requested else {
                throw ImportError(path: path, line: 0, "--profile \(requestedProfile): expected no --profile with --merge, or the "
                    + "scenario's own, found " + (existing.device.profile.map { "device.profile \($0)" } ?? "no device.profile")
                    + ": a merge adds the app and keeps the scenario's device; drop --profile or change device.profile in \(path)",
                    isUsage: true)
            }
        }
        var lines = TextInput.normalisingLineEnds(text, lineBreaks: .yaml).split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
        if lines.last == "" { lines.removeLast() }
        if let app = existing.apps.first(where: { $0.name == imported.app.name }) {
            guard let screen = imported.app.screens.first else { return text }
            if app.screens.contains(where: { $0.name == screen.name }) {
                throw ImportError(path: path, line: 0, "--merge: app \(app.name) already has a screen \(screen.name); "
                    + "name the new one with --screen", isUsage: true)
            }
            let appBlock = try block(named: app.name, in: lines, within: try block(named: "apps", in: lines, within: nil, path: path), path: path)
            let screens = try block(named: "screens", in: lines, within: appBlock, path: path)
            let indent = indentation(in: lines, block: screens, fallback: screens.indent + "  ")
            lines.insert(contentsOf: imported.screenLines(screen, indent: indent), at: screens.end)
        } else {
            let script = try block(named: "script", in: lines, within: nil, path: path)
            let stepIndent = indentation(in: lines, block: script, fallback: "  ")
            lines.insert("\(stepIndent)- launch: \(imported.app.name)", at: script.end)
            let apps = try block(named: "apps", in: lines, within: nil, path: path)
            lines.insert(contentsOf: imported.appLines(indent: indentation(in: lines, block: apps, fallback: "  ")), at: apps.end)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A block-style key's lines: the key's line, the end (past its last non-blank line) and
    /// the key's own indentation.
    struct Block {
        var start: Int
        var end: Int
        var indent: String
    }

    /// The block of `key:` (at the top level, or directly inside `parent`).
    static func block(named key: String, in lines: [String], within parent: Block?, path: String) throws(ImportError) -> Block {
        let range = parent.map { ($0.start + 1)..<$0.end } ?? 0..<lines.count
        let minimumIndent = parent.map { $0.indent.count + 1 } ?? 0
        var childIndent: Int?
        for index in range {
            let line = lines[index]
            let indent = line.prefix { $0 == " " }.count
            let body = line.dropFirst(indent)
            if body.isEmpty || body.hasPrefix("#") || indent < minimumIndent { continue }
            if childIndent == nil { childIndent = indent }
            // The key plain or quoted (`apps:`, `'apps':`, `"apps":`): YAML reads the three alike.
            guard indent == childIndent, let spelled = ["\(key):", "'\(key)':", "\"\(key)\":"].first(where: { body.hasPrefix($0) }) else { continue }
            let rest = body.dropFirst(spelled.count).trimmingCharacters(in: .whitespaces)
            guard rest.isEmpty || rest.hasPrefix("#") else {
                throw ImportError(path: path, line: index + 1, "--merge: expected a block-style '\(key):' to append to, found "
                    + DumpText.quote(String(body)) + " (flow style: rewrite it one entry a line)")
            }
            var end = index + 1
            var last = index + 1
            while end < range.upperBound {
                let next = lines[end]
                let nextIndent = next.prefix { $0 == " " }.count
                let nextBody = next.dropFirst(nextIndent)
                if !nextBody.isEmpty, !nextBody.hasPrefix("#"), nextIndent <= indent, !(nextBody.hasPrefix("- ") && nextIndent == indent) { break }
                if !nextBody.isEmpty, !nextBody.hasPrefix("#") { last = end + 1 }
                end += 1
            }
            return Block(start: index, end: last, indent: String(repeating: " ", count: indent))
        }
        throw ImportError(path: path, line: 0, "--merge: expected a block-style '\(key):' in the scenario, found none")
    }

    /// The indentation of a block's first entry (`fallback` when it has none).
    static func indentation(in lines: [String], block: Block, fallback: String) -> String {
        for index in (block.start + 1)..<block.end {
            let line = lines[index]
            let indent = line.prefix { $0 == " " }
            if !line.dropFirst(indent.count).isEmpty, !line.dropFirst(indent.count).hasPrefix("#") { return String(indent) }
        }
        return fallback
    }
}

import PressureLab
import PressureLabHarness
import Foundation
