import Foundation
import PressureLabHeap
import SystemPackage

/// The bundled device profiles (`profiles/`), and the one used when none is named.
public enum ProfileLibrary {
    /// The profile `run`, `compare`, `baseline` and the bare suite use when none is named: the
    /// bundled scenarios model UIKit apps, so an iPhone-class device.
    public static let defaultName = "iphone-xs-2018"

    /// The bundled profiles (next to the executable's package, else compiled into the
    /// binary), with a `profiles` folder in the working directory added to them when there is
    /// one of one's own: its profiles add to the bundled ones, and one named as a bundled one
    /// takes its place (said once on standard error when it is used, `noteShadowing(_:)`).
    public static func locate(workingDirectory: String = FileManager.default.currentDirectoryPath) -> ScenarioLibrary? {
        let local = workingDirectory + "/profiles"
        guard var library = ScenarioLibrary.locate(folder: "profiles", workingDirectory: false) else {
            return ScenarioLibrary.isDirectory(local) ? ScenarioLibrary(directory: local) : nil
        }
        if ScenarioLibrary.isDirectory(local), HostFiles.realPath(FilePath(local)) != HostFiles.realPath(FilePath(library.directory)) {
            library.local = local
        }
        return library
    }

    /// Says once a process, on standard error, that `path`, a local profile, is used in place
    /// of the bundled profile of its name.
    static func noteShadowing(_ path: String) {
        guard ShadowNotices.shared.first(path) else { return }
        let name = FilePath(path).stem ?? path
        try? HostFiles.writeAll(.standardError, "pressurelab: profile \(name): using \(path), which takes the place of the "
            + "bundled profile of that name\n")
    }

    /// Loads a profile (`nil`: the default). A bundled name is looked up in `library`; a
    /// name it lacks is read as a path (and fails as a missing file).
    public static func load(_ reference: ProfileReference?, library: ScenarioLibrary? = ProfileLibrary.locate()) throws(ScenarioError) -> DeviceProfile {
        switch reference ?? .default {
        case .bundled(let name):
            let path = library?.resolve(name) ?? name
            guard path != name || FileManager.default.fileExists(atPath: name) else {
                let known = (library?.files ?? []).compactMap { FilePath($0).stem }.sorted()
                throw ScenarioError(diagnostics: [.init(path: name, line: 0, column: 0, key: "",
                    message: "no bundled profile named \(ScenarioReader.quote(name))"
                        + (known.isEmpty ? "" : "; bundled profiles: \(known.joined(separator: ", "))"))])
            }
            if library?.shadowing.contains(path) == true { noteShadowing(path) }
            return try ProfileLoader().load(path: path)
        case .file(let path): return try ProfileLoader().load(path: path)
        }
    }

    /// Every bundled profile, loaded (sorted by name).
    public static func all(library: ScenarioLibrary? = ProfileLibrary.locate()) throws(ScenarioError) -> [DeviceProfile] {
        var profiles: [DeviceProfile] = []
        for path in library?.files ?? [] { profiles.append(try ProfileLoader().load(path: path)) }
        return profiles
    }
}

/// The local profiles already said to shadow a bundled one (once a process each).
final class ShadowNotices: Sendable {
    static let shared = ShadowNotices()
    private let said = Locked<Set<String>>([])

    /// True the first time `path` is given.
    func first(_ path: String) -> Bool {
        said.withLock { $0.insert(path).inserted }
    }
}
