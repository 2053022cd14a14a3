import PressureLab
import PressureLabHarness

/// `pressurelab import meminfo`: an app's memory by kind from `dumpsys meminfo` (docs/importing.md).
///
/// The mapping, per table row (kB are KiB; "dirty" is Private Dirty plus SwapPss Dirty, the
/// pages the app wrote whether resident or in zram: the simulated device compresses as its
/// own profile says):
/// - Dalvik Heap dirty: the Java heap, the screen's `model:`, less the views' bytes;
/// - Gfx dev, EGL mtrack, GL mtrack (4.4 and 5.0: Graphics, GL) dirty: graphics buffers, the
///   screen's `backing:`;
/// - `.so`/`.jar`/`.apk`/`.ttf`/`.dex`/`.oat`/`.art`/Other mmap: Pss Total less Private Dirty
///   (their private clean pages and their share of shared ones) is `clean:`, their dirty pages `data:`;
/// - Native Heap, Dalvik Other, Stack, Cursor, Ashmem, Other dev, Other mtrack, Unknown
///   dirty: `data:`; the rest of their Pss (shared pages) is left out, and said;
/// - Objects' Views: a tree of that many views of an assumed ``bytesPerView`` each, taken
///   out of the Java heap so that the app's total stays the dump's.
package enum MeminfoImporter {
    /// What a view is assumed to hold on the Java heap: an assumption, not a measurement
    /// (a `View` and its fields, drawables and layout params are some hundreds of bytes to a
    /// few KiB); said in the scenario's comment.
    package static let bytesPerView = 1024

    /// Imports one dump file's text.
    package static func importScenario(_ text: DumpText, options: ImportOptions) throws(ImportError) -> ImportedScenario {
        var reader = MeminfoReader(text)
        let all = try reader.snapshots()
        guard !all.isEmpty else {
            if let first = reader.missing.first {
                throw text.error(first.line, "expected a dumpsys meminfo print of a process, found only 'No process found for: "
                    + "\(first.name)' (\(reader.missing.count) such prints); is the app running?")
            }
            throw ImportError(path: text.path, line: text.lines.isEmpty ? 0 : 1,
                              "expected dumpsys meminfo's '** MEMINFO in pid PID [PROCESS] **', found none in \(text.lines.count) lines "
                                + "(is this adb shell dumpsys meminfo PACKAGE?)")
        }
        let snapshots = try chooseProcess(all, text: text, process: options.process)
        let foreground = snapshots.max { $0.totalPss < $1.totalPss }!
        let process = foreground.process
        let appName = options.app ?? ImportNames.valid(process)
        let screenName = options.screen ?? "main"
        let layout = foreground.hasRss ? "Android 12 to 14 layout (Rss column)"
            : foreground.columns.contains(.swappedDirty) ? "Android 4.4 to 7 layout (Swapped Dirty column)" : "Android 8 to 11 layout"
        var notes = ["Imported by pressurelab import meminfo from \(text.path): dumpsys meminfo, \(layout).",
                     "Process \(process), \(snapshots.count) snapshot\(snapshots.count == 1 ? "" : "s"); the largest "
                     + "(TOTAL Pss \(foreground.totalPss) kB, pid \(foreground.pid), \(text.origin(foreground.line))) is the foreground footprint."]
        let pids = snapshots.map(\.pid).reduce(into: [Int]()) { if !$0.contains($1) { $0.append($1) } }
        if pids.count > 1 {
            notes.append("The process restarted between prints: pids \(pids.map(String.init).joined(separator: ", ")) in file order; "
                         + "only prints of pid \(foreground.pid) can be its background.")
        }
        for skipped in reader.missing {
            notes.append("Skipped: 'No process found for: \(skipped.name)' (\(text.origin(skipped.line))).")
        }
        let others = Set(all.map(\.process)).subtracting([process]).sorted()
        if !others.isEmpty { notes.append("Other processes in the dump, not imported: \(others.joined(separator: ", ")).") }
        var app = ImportedScenario.App(name: appName)
        let figures = Figures(foreground, text: text)
        app.data = figures.data
        app.clean = figures.clean
        app.notes = figures.dropped
        var screen = ImportedScenario.Screen(name: screenName, views: 1, fanout: 4, bytesPerView: 1024)
        var java = figures.java
        if let views = foreground.objects["Views"], views.value > 0 {
            guard views.value <= ScenarioLimits.viewsPerTree else {
                throw text.error(views.line, "expected at most \(ScenarioLimits.viewsPerTree) views, found \(views.value)")
            }
            let perView = java.bytes >= views.value * bytesPerView ? bytesPerView : max(1, java.bytes / views.value)
            screen.views = views.value
            screen.bytesPerView = perView
            screen.treeOrigins = ["Views: \(views.value) (\(text.origin(views.line))), fanout 4 (the dump has no shape); \(perView) B a view "
                                  + "assumed (not measured), taken out of the Java heap below."]
            java.bytes = max(0, java.bytes - views.value * perView)
            java.origins.append("less \(views.value) views x \(perView) B = \(views.value * perView) B (the tree above)")
        } else {
            screen.treeOrigins = ["No Views count in the dump: one view of 1 KiB (an assumption), not taken out of the Java heap."]
        }
        if let activities = foreground.objects["Activities"] {
            screen.notes.append("Activities: \(activities.value) (\(text.origin(activities.line))); imported as one screen.")
        }
        screen.backing = figures.graphics
        screen.model = java
        app.screens = [screen]
        if let index = options.background {
            guard index >= 1, index <= snapshots.count else {
                throw ImportError(path: text.path, line: 0, "--background \(index): expected a snapshot from 1 to \(snapshots.count) of "
                    + "process \(process), found none numbered \(index)", isUsage: true)
            }
            // The background print must be of the same process as the foreground one: a print
            // of an earlier pid is another life of the app (it was restarted), not its background.
            let chosen = snapshots[index - 1]
            guard chosen.pid == foreground.pid else {
                let same = snapshots.indices.filter { snapshots[$0].pid == foreground.pid }.map { String($0 + 1) }
                throw ImportError(path: text.path, line: 0, "--background \(index): expected a snapshot of pid \(foreground.pid), the "
                    + "foreground's (\(text.origin(foreground.line))), found pid \(chosen.pid) (\(text.origin(chosen.line))): another "
                    + "process of \(process) (the app restarted); snapshots of pid \(foreground.pid): \(same.joined(separator: ", "))",
                    isUsage: true)
            }
            let background = Figures(snapshots[index - 1], text: text)
            (app.onBackground, app.backgroundNotes) = releases(foreground: figures, background: background, index: index,
                                                               line: snapshots[index - 1].line, text: text)
            splitJavaHeap(&app, foreground: figures, background: background, index: index)
        }
        var imported = ImportedScenario(notes: notes, deviceMemoryBytes: 0, profile: options.profile ?? ImportFormat.meminfo.defaultProfile, app: app)
        imported.footprint = figures.footprint
        imported.leftOut = figures.leftOut
        var result = imported
        result.deviceMemoryBytes = ImportedScenario.roomyDevice(for: imported.declaredDirtyBytes + (app.clean?.bytes ?? 0))
        return result
    }

    /// The snapshots of the process asked for, or of the only one; several without a choice
    /// is an error that lists them.
    static func chooseProcess(_ all: [MeminfoSnapshot], text: DumpText, process: String?) throws(ImportError) -> [MeminfoSnapshot] {
        var names: [String] = []
        for snapshot in all where !names.contains(snapshot.process) { names.append(snapshot.process) }
        let listed = names.map { name in
            let first = all.first { $0.process == name }!
            return "\(name) (pid \(first.pid), line \(first.line))"
        }.joined(separator: ", ")
        if let process {
            let chosen = all.filter { $0.process == process || String($0.pid) == process }
            guard !chosen.isEmpty else {
                throw ImportError(path: text.path, line: 0, "--process \(process): expected one of the dump's processes, found none "
                    + "of that name or pid; the dump has \(listed)", isUsage: true)
            }
            return chosen
        }
        guard names.count == 1 else {
            let second = all.first { $0.process != names[0] }!
            throw text.error(second.line, "expected one process, found \(names.count): \(listed); choose one with --process NAME")
        }
        return all
    }
}
