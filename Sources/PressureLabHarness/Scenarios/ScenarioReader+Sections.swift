import PressureLab
import PressureLabHeap
import SystemPackage
import Yams

/// A scenario's top level, and its checks against the host and the work limits (the device
/// section is read in ScenarioReader+Device, the apps in ScenarioReader+Apps).
extension ScenarioReader {
    mutating func scenario(_ root: Node) -> Scenario? {
        guard let top = mapping(root, "", allowed: Self.topKeys) else { return nil }
        if let version = required(top, "scenario", in: root, path: "") {
            if version.wholeNumber != 1 {
                error(version, "scenario", "unsupported format version \(describe(version)); this build reads version 1")
            }
        }
        let name = required(top, "name", in: root, path: "").flatMap { self.name($0, "name") }
        let description = value(top, "description").flatMap { string($0, "description") } ?? ""
        let seed = value(top, "seed").flatMap { unsigned($0, "seed") } ?? 0
        let device = required(top, "device", in: root, path: "").flatMap { self.device($0) }
        let apps = required(top, "apps", in: root, path: "").flatMap { self.apps($0) } ?? []
        let script = required(top, "script", in: root, path: "").flatMap { node in
            steps(node, "script", apps: apps, depth: 0)
        } ?? []
        if let scriptNode = value(top, "script"), script.isEmpty, diagnostics.isEmpty {
            error(scriptNode, "script", "the script has no steps")
        }
        // References to a failed screen or app are not reported again; the failure itself
        // always is (this guards a read that failed without saying why).
        if diagnostics.isEmpty, let failed = (failedApps.sorted() + failedScreens.sorted()).first {
            error(value(top, "apps"), "apps", "'\(failed)' could not be read")
        }
        guard let name, let device else { return nil }
        let scenario = Scenario(name: name, description: description, seed: seed, device: device, apps: apps,
                                script: script, path: path, replay: replay)
        if diagnostics.isEmpty, let deviceNode = value(top, "device") {
            checkHost(scenario, deviceNode: deviceNode)
        }
        if diagnostics.isEmpty, let scriptNode = value(top, "script") {
            checkWork(scenario, scriptNode: scriptNode, appsNode: value(top, "apps"))
        }
        return scenario
    }

    /// The one host check: the budget, and the most the run can hold (everything declared,
    /// bounded by the budget plus one allocation), must fit what this host allows a
    /// simulation (a share of physical memory, the cgroup limit, RLIMIT_AS and RLIMIT_DATA).
    mutating func checkHost(_ scenario: Scenario, deviceNode: Node) {
        let budget = scenario.device.memoryBytes
        let memoryNode = deviceNode.mapping.flatMap { value($0, "memory") } ?? deviceNode
        if budget > hostLimitBytes {
            error(memoryNode, "device.memory", "the budget of \(budget) bytes is more than the \(hostLimitBytes) bytes "
                + "this host allows a simulation (a safe share of its physical memory, cgroup limit and process limits)")
            return
        }
        // An app's clean mapped memory is read whole at each launch and is resident: more than
        // the device's memory is not a device's app (3 GiB on a 16 MiB device took 52 s and
        // 3.2 GB of the host for one launch).
        for app in scenario.apps where app.cleanBytes > budget {
            let site = declarationSites.first { $0.key == "apps.\(app.name).clean" }
            error(site?.node ?? memoryNode, "apps.\(app.name).clean", "the app's clean mapped memory (\(app.cleanBytes) bytes) is more "
                + "than the device's memory (\(budget) bytes): a launch reads all of it into memory; declare at most \(budget) bytes, "
                + "or give the device more memory")
        }
        // Clean mapped files and model files are written to a disk file system: they must fit
        // what is free there.
        let files = scenario.declaredFileBytes
        if files > 0, let free = HostFiles.freeBytes(at: FilePath(TemporaryFiles.systemDirectory)), files > free / 2,
           let site = declarationSites.filter({ $0.key.hasSuffix(".clean") || $0.key.hasSuffix(".model") })
               .max(by: { $0.bytes < $1.bytes }) {
            error(site.node, site.key, "the apps' clean mapped files and the models of the screens the script can show take "
                + "\(Self.count(files)) bytes of disk, more than half of the \(free) bytes free in "
                + "\(TemporaryFiles.systemDirectory); declare less")
        }
        let declared = scenario.declaredMemory
        let worst = declared.worstCaseBytes(budgetBytes: budget)
        guard worst > hostLimitBytes else { return }
        let site = declarationSites.max { $0.bytes < $1.bytes }
        error(site?.node ?? memoryNode, site?.key ?? "device.memory",
              "the run could hold \(worst == Int.max ? "more than \(Int.max)" : String(worst)) bytes: the budget "
                + "(\(budget) bytes) plus the largest single allocation (\(declared.largestAllocationBytes) bytes"
                + (site == nil ? "" : ", this one") + "), more than the \(hostLimitBytes) bytes this host allows a "
                + "simulation; declare less or give a smaller budget")
    }

    /// The work half of the host check: what the script expands to must stay under
    /// ``ScenarioLimits`` (views built, steps times apps).
    mutating func checkWork(_ scenario: Scenario, scriptNode: Node, appsNode: Node?) {
        let work = scenario.declaredWork
        if work.viewsBuilt > ScenarioLimits.viewsBuilt {
            error(scriptNode, "script", "the script builds up to \(Self.count(work.viewsBuilt)) views (each push and present "
                + "its screen's tree, each launch and switch its app's launch screens, each pop, dismiss and tab switch the "
                + "largest screen it may reload, repeats multiplied), more than the "
                + "\(ScenarioLimits.viewsBuilt) a run may build; push fewer or smaller screens")
        }
        if work.appSteps > ScenarioLimits.appSteps {
            error(appsNode ?? scriptNode, "apps", "\(scenario.apps.count) apps and \(scenario.expandedStepCount) steps make "
                + "\(Self.count(work.appSteps)) app-steps (the device looks over every app at each step), more than the "
                + "\(ScenarioLimits.appSteps) a run may take; declare fewer apps or steps")
        }
        checkFill(scenario, scriptNode: scriptNode)
    }

    /// The fill half of the work check: the bytes the script can fill and the clean bytes its
    /// launches can read again must stay under ``ScenarioLimits/filledBytes`` and
    /// ``ScenarioLimits/cleanBytesRead`` (``DeclaredFill``).
    mutating func checkFill(_ scenario: Scenario, scriptNode: Node) {
        let fill = scenario.declaredFill
        if fill.filledBytes > ScenarioLimits.filledBytes {
            error(scriptNode, "script", "the script can fill \(Self.count(fill.filledBytes)) bytes of memory (\(Self.count(fill.launches)) "
                + "steps that open an app, each a cold launch at worst that fills the app's data and launch screens up to the budget; "
                + "repeats multiplied), more than the \(ScenarioLimits.filledBytes) bytes a run may fill (docs/limits.md); open apps "
                + "less often, or give them less memory or the device a smaller budget")
        }
        if fill.cleanBytesRead > ScenarioLimits.cleanBytesRead, let largest = fill.largestClean {
            let site = declarationSites.first { $0.key == "apps.\(largest.app).clean" }
            error(site?.node ?? scriptNode, "apps.\(largest.app).clean", "the script's \(Self.count(fill.launches)) steps that open an "
                + "app can read the apps' clean mapped files again \(Self.count(fill.cleanBytesRead)) bytes in all (each a cold launch "
                + "at worst, which reads the app's whole clean file: this app's \(largest.bytes) bytes), more than the "
                + "\(ScenarioLimits.cleanBytesRead) bytes a run may read (docs/limits.md); declare less clean memory or open apps less often")
        }
    }

    /// A saturated count as text.
    static func count(_ value: Int) -> String { value == Int.max ? "more than \(Int.max)" : String(value) }

    /// Counts a tree's views against what the scenario's screens may describe in all
    /// (``ScenarioLimits/describedViews``), before the tree is built; an error when over.
    mutating func describes(views: Int, _ node: Node, _ key: String) -> Bool {
        let wasOver = describedViews > ScenarioLimits.describedViews
        describedViews = describedViews.addingSaturating(views)
        guard describedViews > ScenarioLimits.describedViews else { return true }
        guard !wasOver else { return false }  // said once, at the tree that went over
        error(node, "\(key).tree", "the screens describe \(Self.count(describedViews)) views with this tree (\(views) views), "
            + "more than the \(ScenarioLimits.describedViews) a scenario may describe; use smaller trees or fewer screens")
        return false
    }

    /// A whole number from 0 to 2^64-1 (a seed).
    mutating func unsigned(_ node: Node, _ key: String) -> UInt64? {
        guard let scalar = node.scalar, let value = UInt64(scalar.string.trimmingCharacters(in: .whitespaces)) else {
            error(node, key, "expected a whole number from 0 to \(UInt64.max), got \(describe(node))")
            return nil
        }
        return value
    }

}
