import Foundation
import SystemPackage

/// The bundled device profiles (`profiles/`), and the one used when none is named.
public enum ProfileLibrary {
    /// The profile `run`, `compare`, `baseline` and the bare suite use when none is named: the
    /// bundled scenarios model UIKit apps, so an iPhone-class device.
    public static let defaultName = "iphone-xs-2018"

    /// The bundled profiles' directory, if found.
    public static func locate() -> ScenarioLibrary? { ScenarioLibrary.locate(folder: "profiles") }

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
