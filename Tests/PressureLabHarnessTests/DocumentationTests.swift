import Foundation
import Testing
import TestSupport

/// The documentation people browse (README.md, docs/, the DocC catalogs): every relative
/// link lands, and the catalogs present docs/ without a second copy (scripts/docs.sh builds
/// the site; docc itself fails on a symbol or article link that does not resolve).
@Suite("Documentation: links land, one text for GitHub and DocC")
struct DocumentationTests {
    static let root = Executable.packageRoot
    static let catalogs = ["PressureLab", "PressureLabHarness", "PressureLabTesting", "PressureLabCommandLine"]
        .map { "Sources/\($0)/\($0).docc" }

    static func files(in folder: String, ending suffix: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)
            .filter { $0.hasSuffix(suffix) }.sorted().map { "\(folder)/\($0)" }
    }

    /// GitHub's anchor for a heading: lowercased, punctuation dropped, spaces as hyphens.
    static func anchor(_ heading: Substring) -> String {
        String(heading.lowercased().compactMap { $0 == " " ? "-" : ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") ? $0 : nil })
    }

    static func anchors(of path: String) throws -> Set<String> {
        let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
        return Set(text.split(separator: "\n").filter { $0.hasPrefix("#") }.map { anchor($0.drop { $0 == "#" }.drop { $0 == " " }) })
    }

    /// Every Markdown link's target in a file (inline links, images included).
    static func links(in path: String) throws -> [String] {
        let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: #"\]\(([^)\s]+)\)"#)
        return pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).map {
            String(text[Range($0.range(at: 1), in: text)!])
        }
    }

    @Test("every relative link in README.md, docs/*.md and the catalogs lands on a file (and a heading)")
    func relativeLinksResolve() throws {
        var pages = ["README.md", "Benchmarks/README.md"] + (try Self.files(in: "docs", ending: ".md"))
        for catalog in Self.catalogs { pages += try Self.files(in: catalog, ending: ".md") }
        var checked = 0
        for page in pages {
            // A catalog's link to docs/ is read where its target lives.
            let real = URL(fileURLWithPath: Self.root.appendingPathComponent(page).path).resolvingSymlinksInPath()
            let folder = real.deletingLastPathComponent()
            for link in try Self.links(in: page) where !link.contains("://") && !link.hasPrefix("doc:") && !link.hasPrefix("mailto:") {
                let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let target = parts[0].isEmpty ? real : folder.appendingPathComponent(String(parts[0])).standardizedFileURL
                #expect(FileManager.default.fileExists(atPath: target.path), "\(page): the link \(link) lands on no file")
                if parts.count == 2, target.pathExtension == "md", FileManager.default.fileExists(atPath: target.path) {
                    let relative = String(target.path.dropFirst(Self.root.standardizedFileURL.path.count + 1))
                    #expect(try Self.anchors(of: relative).contains(String(parts[1])), "\(page): the link \(link) names no heading")
                }
                checked += 1
            }
        }
        #expect(checked > 60)
    }

    @Test("each docs/*.md is an article of exactly one catalog, as a link to it, not a copy")
    func catalogsPresentDocs() throws {
        var homes: [String: [String]] = [:]
        for catalog in Self.catalogs {
            for article in try Self.files(in: catalog, ending: ".md") where !article.hasSuffix("/\(catalog.split(separator: "/")[1]).md") {
                let path = Self.root.appendingPathComponent(article).path
                let destination = try FileManager.default.destinationOfSymbolicLink(atPath: path)
                #expect(destination == "../../../docs/" + (article as NSString).lastPathComponent, "\(article) is not a link to docs/")
                homes[(article as NSString).lastPathComponent, default: []].append(catalog)
            }
        }
        for doc in try Self.files(in: "docs", ending: ".md") {
            let name = (doc as NSString).lastPathComponent
            #expect(homes[name]?.count == 1, "\(doc) is in \(homes[name] ?? []) (every docs/ file is in one catalog)")
        }
    }

    @Test("the tutorial's files exist, its policies are examples/custom-policy's, and CI follows it (scripts/tutorial.py)")
    func tutorialIsFollowedByCI() throws {
        let catalog = "Sources/PressureLabTesting/PressureLabTesting.docc"
        let tutorial = try String(contentsOf: Self.root.appendingPathComponent("\(catalog)/Tutorials/YourFirstPolicy.tutorial"), encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: #"@Code\(name: "([^"]+)", file: ([^)\s]+)\)"#)
        let steps = pattern.matches(in: tutorial, range: NSRange(tutorial.startIndex..., in: tutorial)).map {
            (name: String(tutorial[Range($0.range(at: 1), in: tutorial)!]), file: String(tutorial[Range($0.range(at: 2), in: tutorial)!]))
        }
        // Every file of the package, every command and what it prints.
        #expect(Set(steps.map(\.name)).isSuperset(of: ["Package.swift", "Terminal", "Output",
                                                      "Sources/CustomPolicies/DropModelsFirst.swift",
                                                      "Sources/CustomPolicies/OldestFirst.swift", "Sources/custom-lab/main.swift",
                                                      "Tests/CustomPoliciesTests/FootprintGateTests.swift"]))
        for step in steps {
            let path = Self.root.appendingPathComponent("\(catalog)/Resources/\(step.file)").path
            #expect(FileManager.default.fileExists(atPath: path), "\(step.file) is not there")
            if step.name.hasPrefix("Sources/") || step.name.hasPrefix("Tests/") {
                // The same code as the example package's, which CI builds and tests as well.
                let destination = try FileManager.default.destinationOfSymbolicLink(atPath: path)
                #expect(destination == "../../../../examples/custom-policy/\(step.name)", "\(step.file) is not \(step.name) of examples/custom-policy")
            }
        }
        let ci = try String(contentsOf: Self.root.appendingPathComponent(".ci/run"), encoding: .utf8)
        #expect(ci.contains("python3 scripts/tutorial.py"))
    }

    @Test("README.md is at most 250 lines and keeps the run and test commands")
    func readmeIsShort() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.split(separator: "\n", omittingEmptySubsequences: false).count - 1 <= 250)
        #expect(readme.contains("```sh\nbash scripts/run.sh\n```") && readme.contains("```sh\nbash scripts/test.sh\n```"))
    }
}
