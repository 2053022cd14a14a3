import Foundation
import Testing
import TestSupport

/// Rules the repository keeps (docs/extending.md): checked here so that they stay kept.
@Suite("Repository rules: small files, host calls behind the door")
struct RepositoryRulesTests {
    /// Every Swift file under `Sources/`, with its text.
    static func sources() throws -> [(path: String, text: String)] {
        let root = Executable.packageRoot.appendingPathComponent("Sources")
        let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        var files: [(String, String)] = []
        while let url = walker?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            files.append((String(url.path.dropFirst(Executable.packageRoot.path.count + 1)), try String(contentsOf: url, encoding: .utf8)))
        }
        return files.sorted { $0.0 < $1.0 }
    }

    @Test("no file in Sources/ is over 300 lines unless its first lines say why (a comment starting 'Over 300 lines:')")
    func smallFiles() throws {
        let files = try Self.sources()
        #expect(files.count > 100)
        for (path, text) in files {
            // Lines as `wc -l` counts them (a final newline ends the last line, it starts none).
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast(text.hasSuffix("\n") ? 1 : 0)
            guard lines.count > 300 else { continue }
            #expect(lines.prefix(10).contains { $0.contains("Over 300 lines:") }, "\(path) has \(lines.count) lines and no reason at its top")
        }
    }

    @Test("the simulation core imports no C library: host calls go through PressureLabHeap")
    func coreImportsNoGlibc() throws {
        for (path, text) in try Self.sources() where path.hasPrefix("Sources/PressureLab/") {
            #expect(!text.contains("import Glibc") && !text.contains("import Darwin"), "\(path) imports the C library")
        }
    }

    @Test("comments cite the repository's own documents, not files outside it")
    func citationsStayInside() throws {
        for (path, text) in try Self.sources() {
            #expect(!text.contains("shared/design.md") && !text.contains("shared/semantics.md"), "\(path) cites a file outside the repository")
        }
    }

    @Test("every Swift block in README.md and docs/*.md is code from examples/custom-policy, which CI builds and tests")
    func readmeSwiftCompiles() throws {
        let root = Executable.packageRoot
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        var blocks: [[String]] = []
        for page in ["README.md"] + docs.sorted() {
            let text = try String(contentsOf: root.appendingPathComponent(page), encoding: .utf8)
            var current: [String]?
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                if current == nil, line == "```swift" { current = [] } else if current != nil, line == "```" {
                    blocks.append(current!)
                    current = nil
                } else if current != nil { current!.append(String(line)) }
            }
        }
        #expect(blocks.count >= 9)
        // The example's Swift files, each as its lines without leading spaces (a block may sit
        // inside a function there).
        let example = root.appendingPathComponent("examples/custom-policy")
        let walker = FileManager.default.enumerator(at: example, includingPropertiesForKeys: nil)
        var files: [[String]] = []
        while let url = walker?.nextObject() as? URL {
            guard url.pathExtension == "swift", !url.path.contains("/.build") else { continue }
            files.append(try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map { String($0.drop { $0 == " " }) })
        }
        for block in blocks {
            let lines = block.map { String($0.drop { $0 == " " }) }.filter { !$0.isEmpty }
            let found = files.contains { file in
                let code = file.filter { !$0.isEmpty }
                return code.indices.contains { start in code[start...].starts(with: lines) }
            }
            #expect(found, "a Swift block of README.md or docs/ is in no file of examples/custom-policy:\n\(block.joined(separator: "\n"))")
        }
    }
}
