import Foundation
import PressureLab
import PressureLabHeap
import SystemPackage

/// The bundled scenarios and device profiles, compiled into the binary (SwiftPM's
/// `embedInCode`), so that an installed `pressurelab` with no checkout still has them.
///
/// When no `scenarios/` or `profiles/` folder is found on disk, ``directory(for:)`` writes
/// them once into a cache folder of their own (named by a hash of their contents, so that
/// another version of the tool never reads them) and the library is read from there.
public enum EmbeddedLibrary {
    /// Every embedded file: its folder (`scenarios`, `scenarios/experiments`, `profiles`),
    /// its name and its bytes. A test checks this list against the folders on disk.
    public static let files: [(folder: String, name: String, bytes: [UInt8])] = [
        ("scenarios", "day-of-apps.yaml", PackageResources.day_of_apps_yaml),
        ("scenarios", "fleet-switching.yaml", PackageResources.fleet_switching_yaml),
        ("scenarios", "leaking-drafts.yaml", PackageResources.leaking_drafts_yaml),
        ("scenarios", "long-random.yaml", PackageResources.long_random_yaml),
        ("scenarios", "mail-compose.yaml", PackageResources.mail_compose_yaml),
        ("scenarios", "modal-wizard.yaml", PackageResources.modal_wizard_yaml),
        ("scenarios", "music-switching.yaml", PackageResources.music_switching_yaml),
        ("scenarios", "photo-browser.yaml", PackageResources.photo_browser_yaml),
        ("scenarios", "settings-deep.yaml", PackageResources.settings_deep_yaml),
        ("scenarios", "seven-tabs.yaml", PackageResources.seven_tabs_yaml),
        ("scenarios", "social-feed.yaml", PackageResources.social_feed_yaml),
        ("scenarios", "steady-drafts.yaml", PackageResources.steady_drafts_yaml),
        ("scenarios/experiments", "fleet-18.yaml", PackageResources.fleet_18_yaml),
        ("scenarios/experiments", "fleet-hot-launch.yaml", PackageResources.fleet_hot_launch_yaml),
        ("scenarios/experiments", "fleet-published.json", PackageResources.fleet_published_json),
        ("scenarios/experiments", "pixel4-rounds.yaml", PackageResources.pixel4_rounds_yaml),
        ("scenarios/experiments", "pixel4-published.json", PackageResources.pixel4_published_json),
        ("profiles", "iphone-xs-2018.yaml", PackageResources.iphone_xs_2018_yaml),
        ("profiles", "pixel-3-2018.yaml", PackageResources.pixel_3_2018_yaml),
        ("profiles", "pixel-4-2019.yaml", PackageResources.pixel_4_2019_yaml),
    ]

    /// A hash of every embedded file's folder, name and bytes.
    static let contentHash: String = {
        var text = ""
        for file in files {
            text += "\(file.folder)/\(file.name):\(file.bytes.count):"
            text += String(decoding: file.bytes, as: UTF8.self)
        }
        return String(text.hashValueStable, radix: 16)
    }()

    /// The folder holding the embedded files of `folder` (`scenarios` or `profiles`),
    /// written there first if needed; nil when no folder could be written.
    public static func directory(for folder: String) -> String? {
        guard let root = extractedRoot() else { return nil }
        return "\(root)/\(folder)"
    }

    /// Where the files are extracted: `$XDG_CACHE_HOME` (else `~/.cache`, else the temporary
    /// folder) `/pressurelab/bundled-HASH`. Written into a fresh folder, then renamed into
    /// place, so that a reader never sees half of it.
    static func extractedRoot() -> String? {
        let environment = ProcessInfo.processInfo.environment
        var bases: [String] = []
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") { bases.append(cache) }
        if let home = environment["HOME"], home.hasPrefix("/") { bases.append(home + "/.cache") }
        bases.append(NSTemporaryDirectory())
        let manager = FileManager.default
        for base in bases {
            let root = "\(base)/pressurelab/bundled-\(contentHash)"
            if manager.fileExists(atPath: "\(root)/profiles") { return root }
            let staging = "\(root).partial-\(ProcessInfo.processInfo.processIdentifier)"
            do {
                try? manager.removeItem(atPath: staging)
                for file in files {
                    try HostFiles.makeDirectories(FilePath("\(staging)/\(file.folder)"))
                    try HostFiles.writeAtomically(FilePath("\(staging)/\(file.folder)/\(file.name)"), contents: file.bytes, durable: false)
                }
                if (try? HostFiles.rename(FilePath(staging), to: FilePath(root))) == nil {
                    // Another process got there first: its copy is the same.
                    try? manager.removeItem(atPath: staging)
                }
                if manager.fileExists(atPath: "\(root)/profiles") { return root }
            } catch {
                try? manager.removeItem(atPath: staging)
            }
        }
        return nil
    }
}
