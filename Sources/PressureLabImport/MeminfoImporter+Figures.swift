import PressureLab
import PressureLabHarness

extension MeminfoImporter {
    /// One snapshot's memory by scenario key (bytes), each with the rows it sums.
    struct Figures {
        var java = ImportedScenario.Figure(bytes: 0, origins: [])
        var graphics = ImportedScenario.Figure(bytes: 0, origins: [])
        var data = ImportedScenario.Figure(bytes: 0, origins: [])
        var clean = ImportedScenario.Figure(bytes: 0, origins: [])
        /// What the mapping leaves out, said in a comment.
        var dropped: [String] = []
        /// The same with sizes, for the report: each left-out part and its rows' lines.
        var leftOut: [ImportedScenario.Reported] = []
        /// The footprint `dumpsys meminfo` reports: the App Summary's TOTAL PSS (`TOTAL:` before
        /// Android 12), else the table's TOTAL Pss Total.
        var footprint: ImportedScenario.Reported?

        init(_ snapshot: MeminfoSnapshot, text: DumpText) {
            var leftOut = 0
            var leftOutRows: [String] = []
            var leftOutLines: [Int] = []
            // The Pss of the Java heap and of the graphics rows that is not their own dirty
            // pages (zygote-shared pages, clean ones): listed as left out, never dropped unsaid.
            var sharedHeap = 0, sharedHeapLines: [Int] = []
            var sharedGraphics = 0, sharedGraphicsRows: [String] = [], sharedGraphicsLines: [Int] = []
            for category in MeminfoCategory.allCases {
                guard let row = snapshot.rows[category] else { continue }
                let origin = text.origin(row.line)
                let dirty = snapshot.dirty(category)
                let dirtyTerm = "\(origin) \(category.rawValue): Private Dirty \(row[.privateDirty]) kB"
                    + (snapshot.swapped(category) > 0 ? " + swapped \(snapshot.swapped(category)) kB" : "")
                let notOwnDirty = max(0, row[.pssTotal] - row[.privateDirty])
                switch category.destination {
                case .javaHeap:
                    java.add(dirty, dirtyTerm)
                    if notOwnDirty > 0 { sharedHeap += notOwnDirty; sharedHeapLines.append(row.line) }
                case .graphics:
                    graphics.add(dirty, dirtyTerm)
                    if notOwnDirty > 0 {
                        sharedGraphics += notOwnDirty
                        sharedGraphicsRows.append(category.rawValue)
                        sharedGraphicsLines.append(row.line)
                    }
                case .mappedFiles:
                    let cleanShare = max(0, row[.pssTotal] - row[.privateDirty])
                    clean.add(cleanShare, "\(origin) \(category.rawValue): Pss Total \(row[.pssTotal]) - Private Dirty \(row[.privateDirty]) kB")
                    if dirty > 0 { data.add(dirty, dirtyTerm) }
                case .otherDirty:
                    if dirty > 0 { data.add(dirty, dirtyTerm) }
                    let shared = max(0, row[.pssTotal] - row[.privateDirty] - row[.privateClean])
                    if shared + row[.privateClean] > 0 {
                        leftOut += shared + row[.privateClean]
                        leftOutRows.append(category.rawValue)
                        leftOutLines.append(row.line)
                    }
                case .sum:
                    continue
                }
            }
            func lines(_ numbers: [Int]) -> String {
                guard let first = numbers.min(), let last = numbers.max() else { return text.path }
                return first == last ? text.origin(first) : "\(text.origin(first))-\(last)"
            }
            if leftOut > 0 {
                dropped.append("Left out: \(leftOut) kB of clean or shared Pss of \(leftOutRows.joined(separator: ", ")) "
                               + "(not the app's own dirty memory, nor mapped files).")
                self.leftOut.append(.init(what: "clean or shared Pss of \(leftOutRows.joined(separator: ", "))", bytes: leftOut * 1024,
                                          origin: lines(leftOutLines)))
            }
            if sharedHeap > 0 {
                dropped.append("Left out: \(sharedHeap) kB of the Dalvik Heap's Pss beyond its Private Dirty (pages shared with "
                               + "the zygote and other processes, clean pages): not the app's own dirty memory.")
                self.leftOut.append(.init(what: "the Dalvik Heap's shared and clean Pss", bytes: sharedHeap * 1024, origin: lines(sharedHeapLines)))
            }
            if sharedGraphics > 0 {
                dropped.append("Left out: \(sharedGraphics) kB of \(sharedGraphicsRows.joined(separator: ", ")) Pss beyond their "
                               + "Private Dirty (shared graphics buffers).")
                self.leftOut.append(.init(what: "shared Pss of \(sharedGraphicsRows.joined(separator: ", "))", bytes: sharedGraphics * 1024,
                                          origin: lines(sharedGraphicsLines)))
            }
            if let code = snapshot.summary["Code"] {
                clean.origins.append("App Summary Code: \(code.value) kB Pss (\(text.origin(code.line))), for comparison")
            }
            if let javaSummary = snapshot.summary["Java Heap"] {
                java.origins.append("App Summary Java Heap: \(javaSummary.value) kB (\(text.origin(javaSummary.line))) also counts .art mmap, "
                                    + "imported above as mapped files")
            }
            if let total = snapshot.summary["TOTAL PSS"] ?? snapshot.summary["TOTAL"] {
                dropped.append("App Summary TOTAL Pss: \(total.value) kB (\(text.origin(total.line))).")
                footprint = .init(what: "App Summary TOTAL PSS", bytes: total.value * 1024, origin: text.origin(total.line))
            } else if let total = snapshot.rows[.total] {
                footprint = .init(what: "TOTAL Pss Total", bytes: total[.pssTotal] * 1024, origin: text.origin(total.line))
            }
        }

        var byKind: [(key: String, item: String, figure: ImportedScenario.Figure)] {
            [("model", "models", java), ("backing", "backing", graphics), ("data", "", data), ("clean", "", clean)]
        }
    }

    /// What the app releases in the background: graphics (`backing`) at most half the
    /// foreground's are released (`on_background` releases a kind whole); the Java heap is
    /// split by ``splitJavaHeap(_:foreground:background:index:)``; what the keys cannot say is
    /// said in comments.
    static func releases(foreground: Figures, background: Figures, index: Int, line: Int,
                         text: DumpText) -> ([String], [String]) {
        var items: [String] = []
        var notes = ["Background: snapshot \(index) (\(text.origin(line))) against the foreground, by kind:"]
        for ((key, item, before), (_, _, after)) in zip(foreground.byKind, background.byKind) {
            let released = before.bytes > 0 && after.bytes * 2 <= before.bytes
            let change = "\(key) \(before.bytes / 1024) -> \(after.bytes / 1024) kB"
            switch key {
            case "model":
                notes.append("  \(change): " + (after.bytes < before.bytes
                    ? "the drop is released (models: ART's background collector compacts and trims the heap), the rest kept as app data"
                    : "kept"))
            case "backing":
                if released { items.append(item) }
                notes.append("  \(change): " + (released ? "released (\(item))" : "kept (less than half released)"))
            case "data":
                notes.append("  \(change): app data is never released on entering the background in a scenario; not expressed")
            default:
                notes.append("  \(change): the system drops clean pages under pressure; not an app release, not expressed")
            }
        }
        notes.append("  caches: dumpsys meminfo has no figure for caches; the screen declares none.")
        return (items, notes)
    }
}

extension MeminfoImporter {
    /// The Java heap in the background: what it lost since the foreground is the screen's
    /// `model`, released on entering the background (`on_background: [models]`, ART's
    /// background collector transition: docs/fidelity.md, "Fleet's experiment"); what it kept
    /// moves to the app's `data`, which a scenario never releases. The views' bytes stay out.
    static func splitJavaHeap(_ app: inout ImportedScenario.App, foreground: Figures, background: Figures, index: Int) {
        guard var model = app.screens.first?.model, background.java.bytes < foreground.java.bytes else { return }
        let released = min(model.bytes, foreground.java.bytes - background.java.bytes)
        let kept = model.bytes - released
        model.origins.append("of which \(released) B released in the background (snapshot \(index)'s Java heap is "
                             + "\(background.java.bytes / 1024) kB): the model; \(kept) B kept, moved to data")
        model.bytes = released
        app.screens[0].model = model
        if kept > 0 {
            var data = app.data ?? ImportedScenario.Figure(bytes: 0, origins: [])
            data.add(kept / 1024, "Java heap kept in the background (snapshot \(index)), less the views")
            data.bytes += kept % 1024
            app.data = data
        }
        if !app.onBackground.contains("models") { app.onBackground.insert("models", at: 0) }
    }
}

extension ImportedScenario.Figure {
    /// Adds `kilobytes` with its origin.
    mutating func add(_ kilobytes: Int, _ origin: String) {
        bytes += kilobytes * 1024
        origins.append(origin)
    }
}
