/// The bundled device profiles (`profiles/`), and the one used when none is named.
public enum ProfileLibrary {
    /// The profile `run`, `compare`, `baseline` and the bare suite use when none is named: the
    /// bundled scenarios model UIKit apps, so an iPhone-class device.
    public static let defaultName = "iphone-xs-2018"

    /// The bundled profiles' directory, if found.
    public static func locate() -> ScenarioLibrary? { ScenarioLibrary.locate(folder: "profiles") }

    /// Loads a profile by bundled name or by path (`nil` or empty: the default).
    public static func load(_ nameOrPath: String?, library: ScenarioLibrary? = ProfileLibrary.locate()) throws(ScenarioError) -> DeviceProfile {
        let argument = (nameOrPath?.isEmpty ?? true) ? defaultName : nameOrPath!
        let path = library?.resolve(argument) ?? argument
        return try ProfileLoader().load(path: path)
    }

    /// Every bundled profile, loaded (sorted by name).
    public static func all(library: ScenarioLibrary? = ProfileLibrary.locate()) throws(ScenarioError) -> [DeviceProfile] {
        var profiles: [DeviceProfile] = []
        for path in library?.files ?? [] { profiles.append(try ProfileLoader().load(path: path)) }
        return profiles
    }
}
