import PressureLab
import PressureLabHarness
import Foundation

/// Reads UIKit's `recursiveDescription` as people print it: lldb's `po` (the text as it is, or
/// in Swift `Optional(...)`), `p`/`expr` (`(NSString *) $0 = 0x... @"..."`, newlines escaped),
/// old lldb's `(id) $1 = 0x... <UIWindow ...>` first line, iOS 6's view-controller annotations
/// (`'VC:0x...' 1 child[...] <UIView ...>`), Cycript's results (a JavaScript template string
/// between backticks, an `@"..."` string with `?expand` on or off, a stray `"` after the last
/// `>`), with the session's prompts around them (`(lldb) ...`, `cy# ...`, a shell prompt).
/// One view a line, `<Class: 0xADDR; frame = (x y; w h); ...>`, each level indented by `   | `
/// (or a tab-converted `\t| `); a line wrapped inside `<...>` (a long `text = '...'`) continues
/// until its brackets close; a layer listed in the tree (`<__UITileLayer: 0x...> (layer)`) is
/// not a view and is skipped. Several windows are several roots.
///
/// A session can print several results: each prompt line (`cy#`, `(lldb)`) or line that is
/// neither a view nor inside one (at the left margin) ends one. The result with the most views
/// is read (the last of equals): a `[UIApp keyWindow]` printed before the tree is not taken for it.
package enum RecursiveDescriptionReader {
    /// The views of the dump's largest result, in preorder.
    package static func views(_ text: DumpText) throws(ImportError) -> [DumpedView] {
        try read(text).views
    }

    /// The views of the dump's largest result, with the lines it spans and how many results
    /// with views the dump has.
    /// - Complexity: O(n) in the dump's bytes.
    package static func read(_ text: DumpText) throws(ImportError) -> (views: [DumpedView], results: Int) {
        let lines = unwrapped(text)
        var results: [[DumpedView]] = []
        var views: [DumpedView] = []
        func endResult() {
            if !views.isEmpty { results.append(views) }
            views = []
        }
        var index = 0
        while index < lines.count {
            let (number, line) = lines[index]
            index += 1
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if isPrompt(trimmed) {
                endResult()
                continue
            }
            let prefix = line.prefix { $0 == " " || $0 == "|" || $0 == "\t" }
            let body = framed(line.dropFirst(prefix.count))
            guard body.hasPrefix("<") else {
                if trimmed.allSatisfy({ $0 == " " || $0 == "\t" }) || views.isEmpty { continue }
                if !prefix.contains("|") {
                    endResult()  // the tree ended: a session's other output follows
                    continue
                }
                throw text.error(number, "expected a view, '<Class: 0x...; frame = (x y; w h); ...>', found \(DumpText.quote(String(body)))")
            }
            // The entry: until its angle brackets balance (lines wrapped inside <...>), read once
            // (linear: the balance is carried from line to line, never counted again).
            var entry = String(body)
            var balance = BracketBalance()
            balance.feed(entry)
            while balance.isOpen, index < lines.count {
                let next = lines[index].1
                if !balance.quoted, startsView(next) {
                    throw text.error(number, "expected the view's closing '>' before the next view (line \(lines[index].0)), found none")
                }
                let continuation = next.drop { $0 == " " || $0 == "\t" }
                balance.feed(" ")
                balance.feed(continuation)
                entry += " " + continuation
                index += 1
            }
            guard !balance.isOpen else {
                throw text.error(number, "expected the view's closing '>', found the end of the dump (truncated?)")
            }
            while let last = entry.last, last == "`" || last == "\"" || last == " " { entry.removeLast() }
            guard entry.firstRange(of: "frame = (") != nil else {
                // A layer in the tree, or a session's other result (`<VC 0x...>, state: ...`).
                if views.isEmpty || entry.hasSuffix("(layer)") { continue }
                throw text.error(number, "expected the view's 'frame = (x y; w h)', found \(DumpText.quote(entry))")
            }
            let depth = prefix.filter { $0 == "|" }.count
            guard depth <= (views.last.map { $0.depth + 1 } ?? 0) else {
                throw text.error(number, "expected a view at depth \((views.last?.depth ?? -1) + 1) or less, found depth \(depth) "
                    + "(a level of '   | ' too many)")
            }
            views.append(try view(entry, depth: depth, line: number, text: text))
            guard views.count <= ScenarioLimits.viewsPerTree else {
                throw text.error(number, "expected at most \(ScenarioLimits.viewsPerTree) views, found more")
            }
        }
        endResult()
        var largest: Int?
        for (offset, result) in results.enumerated() where result.count >= (largest.map { results[$0].count } ?? 0) { largest = offset }
        guard let largest else {
            throw ImportError(path: text.path, line: text.lines.isEmpty ? 0 : 1, "expected recursiveDescription's "
                + "'<UIWindow: 0x...; frame = (0 0; 375 812); ...>', found no view in \(text.lines.count) lines")
        }
        return (results[largest], results.count)
    }

    /// A session's prompt: lldb's, Cycript's.
    static func isPrompt(_ trimmed: Substring) -> Bool {
        trimmed.hasPrefix("cy#") || trimmed.hasPrefix("(lldb)")
    }

    /// Whether a line starts a view of a tree (`   | <Class: 0x...; frame = ...`): ends an
    /// unclosed entry before it.
    static func startsView(_ line: String) -> Bool {
        let prefix = line.prefix { $0 == " " || $0 == "|" || $0 == "\t" }
        guard prefix.contains("|") else { return false }
        let body = line.dropFirst(prefix.count)
        return body.hasPrefix("<") && body.firstRange(of: "frame = (") != nil
    }
}
