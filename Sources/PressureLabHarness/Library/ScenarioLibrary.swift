import Foundation

/// Finds bundled YAML files (scenarios, device profiles): a path, a bundled file's name, or
/// the whole library; optionally with a local folder of one's own that adds to it.
public struct ScenarioLibrary {
    /// The directory of bundled files.
    public let directory: String
    /// A folder of one's own whose files add to the bundled ones (`./profiles` for device
    /// profiles): a file of the same name as a bundled one takes its place (``shadowing``).
    public var local: String?

    /// The scenarios of `directory`, and of `local` (a folder of the user's) before them when given.
    public init(directory: String, local: String? = nil) {
        self.directory = directory
        self.local = local
    }

    /// The bundled library of `folder` (`scenarios` or `profiles`): `./folder` (when
    /// `workingDirectory`), else next to the executable's package, else the copy compiled into
    /// the binary (``EmbeddedLibrary``), so that an installed tool works from any directory.
    public static func locate(folder: String = "scenarios", executable: String = CommandLine.arguments.first ?? "",
                              workingDirectory: Bool = true) -> ScenarioLibrary? {
        onDisk(folder: folder, executable: executable, workingDirectory: workingDirectory)
            ?? EmbeddedLibrary.directory(for: folder).map { ScenarioLibrary(directory: $0) }
    }

    /// The library of `folder` on disk (`./folder`, else next to the executable's package).
    static func onDisk(folder: String, executable: String, workingDirectory: Bool) -> ScenarioLibrary? {
        var candidates = workingDirectory ? [FileManager.default.currentDirectoryPath + "/" + folder] : []
        var url = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<5 {
            candidates.append(url.appendingPathComponent(folder).path)
            url.deleteLastPathComponent()
        }
        for candidate in candidates where isDirectory(candidate) {
            return ScenarioLibrary(directory: candidate)
        }
        return nil
    }

    static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// The YAML files of a folder, by name.
    static func yamlFiles(in directory: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }
    }

    /// The library's files, sorted by name: the bundled ones and the local folder's, a local
    /// file in place of a bundled one of the same name.
    public var files: [String] {
        var byName: [String: String] = [:]
        for name in Self.yamlFiles(in: directory) { byName[name] = "\(directory)/\(name)" }
        if let local { for name in Self.yamlFiles(in: local) { byName[name] = "\(local)/\(name)" } }
        return byName.keys.sorted().map { byName[$0]! }
    }

    /// The local files that take the place of a bundled file of the same name.
    public var shadowing: [String] {
        guard let local else { return [] }
        let bundled = Set(Self.yamlFiles(in: directory))
        return Self.yamlFiles(in: local).filter(bundled.contains).sorted().map { "\(local)/\($0)" }
    }

    /// A path as given if it exists, else the local folder's file of that name, else the
    /// bundled one.
    public func resolve(_ argument: String) -> String {
        if FileManager.default.fileExists(atPath: argument) { return argument }
        for folder in [local, directory].compactMap({ $0 }) {
            for suffix in [".yaml", ".yml"] where FileManager.default.fileExists(atPath: "\(folder)/\(argument)\(suffix)") {
                return "\(folder)/\(argument)\(suffix)"
            }
        }
        return argument
    }
}

extension ScenarioLibrary {
    /// The bundled (and local) scenarios' names, sorted.
    public var names: [String] {
        files.map { file in
            let name = file.split(separator: "/").last.map(String.init) ?? file
            return name.hasSuffix(".yaml") ? String(name.dropLast(5)) : name.hasSuffix(".yml") ? String(name.dropLast(4)) : name
        }
    }

    /// A diagnostic for an argument that is neither a file nor a name this library has, when
    /// it reads as a name (no `/`, no `.yaml`): the closest names, and where to see them all.
    /// Nil for anything else (a path is read, and its own error says what is wrong).
    func unknownName(_ argument: String) -> ScenarioDiagnostic? {
        guard !argument.contains("/"), !argument.hasSuffix(".yaml"), !argument.hasSuffix(".yml"),
              resolve(argument) == argument, !FileManager.default.fileExists(atPath: argument) else { return nil }
        let near = ClosestNames.closest(to: argument, in: names)
        let closest = near.isEmpty ? "" : "; the closest bundled names: \(near.joined(separator: ", "))"
        return ScenarioDiagnostic(path: argument, line: 0, column: 0, key: "",
                                  message: "no such file, nor a bundled scenario of that name\(closest) "
                                    + "('pressurelab list scenarios' lists the bundled ones)")
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
        for (index, path) in paths.enumerated() {
            if index < arguments.count, let library, let unknown = library.unknownName(arguments[index]) {
                errors.append(ScenarioError(diagnostics: [unknown]))
                continue
            }
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
