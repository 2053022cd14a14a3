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
