import Foundation
import PressureLabHeap
import SystemPackage

/// An app: its controller hierarchy, its window, its state, and what it saves to come back.
///
/// ```swift
/// let app = Application(name: "mail", runtime: runtime, hierarchy: .tabs([.nav("inbox"), .screen("settings")], selected: 0))
/// try app.launch()           // cold: didFinishLaunching, views load and appear, didBecomeActive
/// try app.home()             // willResignActive, didEnterBackground (archive saved), suspended
/// app.kill()                 // jetsam: no callback; unsaved user data counted as lost
/// try app.launch()           // cold again: the hierarchy and user data come back from the archive
/// ```
public final class Application {
    /// The app's name (trace events carry the runtime's).
    public let name: String
    /// The runtime the app's controllers live in.
    public let runtime: RuntimeContext
    /// The app's window.
    public let window: Window
    /// What a cold launch without an archive builds.
    public let hierarchy: HierarchySpec
    /// Where the restoration archive is saved.
    public let archivePath: String
    /// The app's state. The device reads it for every app several times a step: no dynamic
    /// exclusivity checks (an app is used on one thread; measured: Benchmarks/README.md,
    /// "Exclusivity checks").
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
    @exclusivity(unchecked)
#endif
    public internal(set) var state: AppState = .notRunning
    /// User data bytes lost so far: typed and not saved when the process died.
    public internal(set) var dataLossBytes = 0
    /// Why the last cold launch could not restore its archive (it launched clean).
    public private(set) var lastRestorationError: RestorationError?
    /// Observers of the memory-warning notification, called in order after the delegate.
    public var memoryWarningObservers: [(Application) -> Void] = []
    /// App-wide model data, loaded at launch and held while the process lives (bytes).
    public var appDataBytes = 0
    /// What the app-wide data grew by as the app was used since its process started (bytes).
    public internal(set) var appDataGrowth = 0
    /// Android: the processes the app runs beside its main one (none: one process). They start
    /// with the main process and end with it; one killed alone starts again when the app next
    /// comes to the front.
    public var processes: [ProcessSpec] = []
    /// The memory of each running secondary process, by its name.
    var processMemory: [String: HeapBlock] = [:]
    /// The memory of running secondary processes in the device's swap file, by name.
    var swappedProcessMemory: [String: SwapRegion] = [:]
    /// GPU memory the app's own rendering context holds (a game engine's textures and
    /// buffers), held while the process lives and kept in the background (bytes; 0: none).
    /// `startGraphicsContext()` says what keeps it and what does not.
    public var graphicsContextBytes = 0
    /// Android: how often the app's runtime collects while the app is in the background, as it
    /// allocates there (seconds; nil: only the collector transition after it leaves the front).
    /// ``BackgroundCollection`` says what a collection reads.
    public var backgroundCollectionSeconds: Double?
    /// The graphics context's memory, while the process lives.
    var graphicsContext: HeapBlock?
    /// Clean file-backed memory the app maps: its code and resources (bytes; 0: none).
    public var cleanBytes = 0
    /// The mapping of the app's code and resources, once it first ran.
    var cleanMapping: CleanMapping?
    var appData: HeapBlock?
    /// The app-wide data in the device's compressed pool, if compressed.
    var compressedAppData: CompressedMemoryStore?
    /// The app-wide data in the device's swap file, if swapped out.
    var swappedAppData: SwapRegion?
    /// Whether the running process's hierarchy came from the restoration archive.
    var startedFromArchive = false
    /// What keeps the app running in Background after it leaves the foreground (nil: it is
    /// suspended at once).
    public var backgroundMode: BackgroundMode?
    /// What the app releases in `didEnterBackground` (caches, models, backing stores).
    public var releasesOnBackground: Set<ReleasableItem> = []
    /// The interface of an app launched into the background: built, not shown until the
    /// app first comes to the foreground.
    var pendingInterface: (root: ViewController, modals: [ViewController])?

    /// An app of `runtime`'s screens, launched into `hierarchy`; its restoration archive at
    /// `archivePath` (default: a file of the runtime's bundle).
    public init(name: String, runtime: RuntimeContext, hierarchy: HierarchySpec, archivePath: String? = nil) {
        self.name = name
        self.runtime = runtime
        self.hierarchy = hierarchy
        self.window = Window()
        self.archivePath = archivePath ?? "\(runtime.bundle.directory)/\(name).restoration"
    }

    /// The root view controller, while the process exists.
    public var rootViewController: ViewController? { window.rootViewController }

    // MARK: - Launch and resume

    /// Brings the app to the foreground: a cold launch when it is not running, a resume
    /// when it is suspended or in the background. Nothing happens when it is in front.
    @discardableResult
    public func launch() throws -> LaunchKind? {
        switch state {
        case .notRunning:
            try coldLaunch()
            return .cold
        case .suspended, .background:
            // A secondary process killed while the app was away starts again as it needs it.
            startSecondaryProcesses()
            if let interface = pendingInterface {
                try showForTheFirstTime(interface)
            } else {
                try resume()
            }
            return .resume
        case .inactive, .active:
            return nil
        }
    }

    private func coldLaunch() throws {
        state = .inactive
        let (root, modals) = try startProcess()
        lifeCycleWillShow(root, modals: modals)
        try showInterface(root, modals: modals)
        runtime.count { $0.firstFrames += 1 }
        state = .active
        recordApp(.didBecomeActive)
        runtime.lifeCycle.didShowInterface(of: self)
    }

    /// A new process: counted, its hierarchy restored from the archive (or built), the
    /// app-wide data loaded, then `didFinishLaunching`. Nothing is shown yet.
    func startProcess() throws -> (ViewController, [ViewController]) {
        // A new process: created, then the frameworks and the app initialise.
        runtime.count { work in
            work.processStarts += 1
            work.appInits += 1
        }
        let root: ViewController
        var modals: [ViewController] = []
        lastRestorationError = nil
        startedFromArchive = false
        do {
            if let archive = try RestorationArchive.read(from: archivePath) {
                let bytes = (try? HostFiles.size(of: FilePath(archivePath))) ?? 0
                runtime.count { work in
                    work.storageReadBytes += bytes
                    work.storageReads += 1
                    work.archiveBytesDecoded += bytes
                }
                do {
                    (root, modals) = try restore(archive)
                } catch let error as RestorationError {
                    throw error
                } catch {
                    throw RestorationError.mismatch(path: archivePath, reason: "\(error)")
                }
                recordApp(.restorationRestored)
                startedFromArchive = true
            } else {
                root = try build(hierarchy)
            }
        } catch let error as RestorationError {
            lastRestorationError = error
            recordApp(.restorationFailed)
            do {
                root = try build(hierarchy)
            } catch {
                endProcess()
                throw error
            }
            modals = []
        } catch {
            endProcess()
            throw error
        }
        // The process maps and runs its code: what is not in memory is read from storage.
        do {
            try touchCleanMemory()
        } catch {
            endProcess()
            throw error
        }
        if appDataBytes > 0 {
            runtime.ledger.measure(owner: appDataOwner) {
                appData = HeapBlock(count: appDataBytes, pattern: 0xDA, gate: runtime.memoryGate, fill: runtime.contents?[.appData])
            }
        }
        startGraphicsContext()
        startSecondaryProcesses()
        recordApp(.didFinishLaunching)
        return (root, modals)
    }

    /// Shows the hierarchy: views load and appear; modals are presented again.
    func showInterface(_ root: ViewController, modals: [ViewController]) throws {
        do {
            try window.show(root)
            for modal in modals { try root.present(modal) }
        } catch {
            endProcess()
            throw error
        }
    }

    private func resume() throws {
        recordApp(.willEnterForeground)
        state = .inactive
        runtime.lifeCycle.willReturn(self)
        // The code runs again: clean pages dropped meanwhile are read back (a refault).
        try touchCleanMemory()
        // Rebuild nothing but what was purged: on-screen bitmaps and caches.
        for controller in window.visibleControllers {
            controller.drawBackingStores()
            controller.fillCacheIfNeeded()
        }
        runtime.count { $0.firstFrames += 1 }
        state = .active
        recordApp(.didBecomeActive)
        runtime.lifeCycle.didReturn(self)
    }

    /// The app is used: its app-wide data grows by `bytes` (caches, image pools, the Java heap
    /// filling as content is shown), allocated now and held while the process lives. Only an
    /// app in front grows; its data is resident then. Returns whether it grew.
    @discardableResult
    public func grow(by bytes: Int) -> Bool {
        guard bytes > 0, state.isRunning, compressedAppData == nil, swappedAppData == nil else { return false }
        appDataGrowth += bytes
        let total = appDataBytes + appDataGrowth
        runtime.ledger.measure(owner: appDataOwner) {
            appData = nil
            appData = HeapBlock(count: total, pattern: 0xDA, gate: runtime.memoryGate, fill: runtime.contents?[.appData])
        }
        return true
    }

    // MARK: - User data and restoration

    /// Every controller of the hierarchy, depth first, presented ones last.
    public var controllers: [ViewController] {
        var all: [ViewController] = []
        rootViewController?.forEachInHierarchy { all.append($0) }
        return all
    }

    /// User data typed since the last save, over all controllers.
    public var unsavedUserDataBytes: Int {
        controllers.reduce(0) { $0 + $1.unsavedUserDataBytes }
    }

    /// Pages the app-wide data out to a freezer file (measured).
    func freezeAppData(to file: any PageStore) -> Bool {
        guard let appData else { return true }
        var ok = true
        runtime.ledger.measure(owner: appDataOwner) { ok = appData.freeze(to: file) && file.endGroup() }
        return ok
    }

    /// Bytes the app-wide data holds resident now (measured).
    var appDataHeldBytes: Int { runtime.ledger.balance(of: appDataOwner) }

    /// Reads the app-wide data back from a freezer file (measured).
    func thawAppData(from file: any PageStore) -> Bool {
        guard let appData else { return true }
        var ok = true
        runtime.ledger.measure(owner: appDataOwner) { ok = appData.thaw(from: file) }
        return ok
    }

    /// The ledger key of the app-wide data.
    var appDataOwner: MemoryOwner { MemoryOwner(controller: ControllerID(screen: name, instance: 0), category: .model) }

    func recordApp(_ kind: TraceEventKind) {
        runtime.trace.record(app: runtime.app, controller: nil, kind)
    }
}
