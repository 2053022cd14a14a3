import PressureLab
import PressureLabHarness

/// The scale `import views` draws frames in points at, and where it came from: `--scale`; else
/// the profile's `display: { scale: }` when `--profile` names one; else the scale the window's
/// size in points gives, when only one iPhone scale has that size; else the default profile's,
/// with a warning (a 2x print costed at 3x would hold 2.25 times the pixels).
package struct DisplayScale: Sendable, Equatable {
    package var scale: Double
    /// Where it came from, for the scenario's first comment.
    package var source: String
    /// Said on standard error when the scale was assumed (nil when it was given or read).
    package var warning: String?

    /// iPhone window sizes in points, portrait, and their scales (Apple's Human Interface
    /// Guidelines, "Layout: Specifications"; the iPhone 5 to 16 lines). Sizes two scales share
    /// (320 x 480: the 3GS at 1x, the 4 and 4s at 2x; 414 x 896: the XR and 11 at 2x, the XS Max
    /// and 11 Pro Max at 3x; 768 x 1024: iPads at 1x and 2x) are not here: they are assumed, and said.
    static let knownWindows: [(width: Double, height: Double, scale: Double, devices: String)] = [
        (320, 568, 2, "iPhone 5 to SE (1st)"),
        (375, 667, 2, "iPhone 6 to 8, SE (2nd, 3rd)"),
        (414, 736, 3, "iPhone 6 to 8 Plus"),
        (375, 812, 3, "iPhone X, XS, 11 Pro, 12 and 13 mini"),
        (360, 780, 3, "iPhone 12 and 13 mini"),
        (390, 844, 3, "iPhone 12 to 14"),
        (393, 852, 3, "iPhone 14 Pro to 16"),
        (428, 926, 3, "iPhone 12 to 14 Pro Max, 14 Plus"),
        (430, 932, 3, "iPhone 14 Pro Max to 16 Plus"),
        (402, 874, 3, "iPhone 16 Pro"),
        (440, 956, 3, "iPhone 16 Pro Max"),
    ]

    /// Sizes two scales share, and whose they are.
    static let ambiguousWindows: [(width: Double, height: Double, devices: String)] = [
        (320, 480, "the iPhone 3GS at 1x and the 4 and 4s at 2x have that size"),
        (414, 896, "the iPhone XR and 11 at 2x and the XS Max and 11 Pro Max at 3x have that size"),
        (768, 1024, "iPads at 1x and at 2x have that size"),
    ]

    /// Why a size does not tell the scale, when two scales share it.
    static func ambiguity(ofWindow width: Double, _ height: Double) -> String? {
        let (short, long) = (min(width, height), max(width, height))
        return ambiguousWindows.first { $0.width == short && $0.height == long }?.devices
    }

    /// The scale a window of `width` x `height` points (either orientation) is drawn at, and
    /// the devices; nil when the size is not one scale's alone.
    static func scale(ofWindow width: Double, _ height: Double) -> (Double, String)? {
        let (short, long) = (min(width, height), max(width, height))
        return knownWindows.first { $0.width == short && $0.height == long }.map { ($0.scale, $0.devices) }
    }

    /// The scale for frames of `views` (the first root is the window).
    /// - Parameters:
    ///   - given: `--scale`.
    ///   - profile: the profile the scenario names; `explicit`: named by `--profile`.
    static func choose(given: Double?, profile: String, explicit: Bool, window: DumpedView?, path: String) throws(ImportError) -> DisplayScale {
        if let given { return DisplayScale(scale: given, source: "--scale") }
        let profileScale = try Self.profileScale(profile, path: path)
        let windowScale = window.flatMap { scale(ofWindow: $0.width, $0.height) }
        let size = window.map { "\(ViewTreeImporter.format($0.width))x\(ViewTreeImporter.format($0.height)) pt" } ?? "no window"
        if explicit {
            guard let profileScale else {
                if let (windowed, devices) = windowScale, windowed != ViewTreeImporter.defaultScale {
                    return DisplayScale(scale: windowed, source: "profile \(profile) has no display.scale: the window's \(size), "
                        + "\(devices) at \(ViewTreeImporter.format(windowed))x")
                }
                return DisplayScale(scale: ViewTreeImporter.defaultScale,
                                    source: "profile \(profile) has no display.scale: the default, the iPhone XS's 3x")
            }
            var chosen = DisplayScale(scale: profileScale, source: "profile \(profile)'s display.scale")
            if let (windowed, devices) = windowScale, windowed != profileScale {
                chosen.warning = "\(path): the window, \(size), is the \(devices)'s at \(ViewTreeImporter.format(windowed))x; costed at "
                    + "\(ViewTreeImporter.format(profileScale))x, profile \(profile)'s; pass --scale \(ViewTreeImporter.format(windowed)) "
                    + "for the window's device"
            }
            return chosen
        }
        let fallback = profileScale ?? ViewTreeImporter.defaultScale
        if let (windowed, devices) = windowScale {
            if windowed == fallback { return DisplayScale(scale: fallback, source: "profile \(profile)'s display.scale") }
            return DisplayScale(scale: windowed, source: "the window's \(size): \(devices) at \(ViewTreeImporter.format(windowed))x")
        }
        let other = fallback == 3 ? "2" : "3"
        let root = window.map { "the root view (\($0.className)), \(size)," } ?? "the dump has no view that"
        let why = window.flatMap { ambiguity(ofWindow: $0.width, $0.height) } ?? "no iPhone window has that size"
        return DisplayScale(scale: fallback, source: "assumed: profile \(profile)'s display.scale; the root view's \(size) does not tell",
                            warning: "\(path): assumed \(ViewTreeImporter.format(fallback))x (profile \(profile)'s): \(root) does not "
                                + "tell the scale (\(why)); pass --scale \(other) for a \(other)x device")
    }

    /// A profile's `display.scale` (nil: it has none). A profile that cannot be read is an
    /// error (exit 64): the scenario would name it.
    static func profileScale(_ profile: String, path: String) throws(ImportError) -> Double? {
        let reference = ProfileReference(profile)
        if case .bundled(let name) = reference, let bundled = bundledScales[name] { return bundled }
        do { return try ProfileLibrary.load(reference).displayScale } catch {
            throw ImportError(path: path, line: 0, "--profile \(profile): expected a profile to read the display scale from, found: "
                + error.diagnostics.map(\.message).joined(separator: "; "), isUsage: true)
        }
    }

    /// The bundled profiles' display scales, read once (fuzzing imports thousands of dumps a second).
    static let bundledScales: [String: Double?] = {
        guard let profiles = try? ProfileLibrary.all() else { return [:] }
        return Dictionary(profiles.map { ($0.name, $0.displayScale) }, uniquingKeysWith: { first, _ in first })
    }()
}
