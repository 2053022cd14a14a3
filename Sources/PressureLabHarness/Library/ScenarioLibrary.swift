import Foundation

/// Finds bundled YAML files (scenarios, device profiles): a path, a bundled file's name, or
/// the whole library.
public struct ScenarioLibrary {
    /// The directory of bundled scenarios.
    public let directory: String

    public init(directory: String) {
        self.directory = directory
    }

    /// The bundled library of `folder` (`scenarios` or `profiles`): `./folder`, else next to
    /// the executable's package, else the copy compiled into the binary (``EmbeddedLibrary``),
    /// so that an installed tool works from any directory.
    public static func locate(folder: String = "scenarios", executable: String = CommandLine.arguments.first ?? "") -> ScenarioLibrary? {
        onDisk(folder: folder, executable: executable) ?? EmbeddedLibrary.directory(for: folder).map(ScenarioLibrary.init)
    }

    /// The library of `folder` on disk (`./folder`, else next to the executable's package).
    static func onDisk(folder: String, executable: String) -> ScenarioLibrary? {
        var candidates = [FileManager.default.currentDirectoryPath + "/" + folder]
        var url = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<5 {
            candidates.append(url.appendingPathComponent(folder).path)
            url.deleteLastPathComponent()
        }
        for candidate in candidates {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), isDirectory.boolValue {
                return ScenarioLibrary(directory: candidate)
            }
        }
        return nil
    }

    /// The bundled scenario files, sorted by name.
    public var files: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.sorted().map { "\(directory)/\($0)" }
    }

    /// A path as given if it exists, else the bundled scenario of that name.
    public func resolve(_ argument: String) -> String {
        if FileManager.default.fileExists(atPath: argument) { return argument }
        for suffix in [".yaml", ".yml"] where FileManager.default.fileExists(atPath: "\(directory)/\(argument)\(suffix)") {
            return "\(directory)/\(argument)\(suffix)"
        }
        return argument
    }
}

/// Why a set of scenarios could not be loaded.
public enum ScenarioSetError: Error {
    /// No scenario was named and no bundled library was found.
    case noneGiven
    /// Some files are invalid: every problem of every one of them.
    case invalid([ScenarioError])
}

extension ScenarioLibrary {
    /// Loads scenarios named by path or bundled name (none: the whole of `library`). Every
    /// file is read first, so that the problems of all invalid files come back together.
    public static func loadScenarios(_ arguments: [String], library: ScenarioLibrary?,
                                     loader: ScenarioLoader = ScenarioLoader()) throws(ScenarioSetError) -> [Scenario] {
        var paths = arguments.map { library?.resolve($0) ?? $0 }
        if paths.isEmpty {
            guard let library, !library.files.isEmpty else { throw .noneGiven }
            paths = library.files
        }
        var scenarios: [Scenario] = []
        var errors: [ScenarioError] = []
        for path in paths {
            do {
                scenarios.append(try loader.load(path: path))
            } catch {
                errors.append(error)
            }
        }
        if !errors.isEmpty { throw .invalid(errors) }
        return scenarios
    }
}
