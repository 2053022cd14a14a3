import PressureLabHeap
import SystemPackage

/// The freezer's storage: an app's memory (every controller's, then the app-wide data)
/// written to a file of its own in the app's bundle, compressed page by page when the
/// device has a compressor, and read back in the same order on a thaw. Memory already in
/// the compressed pool is moved to the file as it is, compressed, as XNU's freezer
/// relocates compressed pages into its own segments (`vm_object_compressed_freezer_pageout`,
/// `vm_compressor_pager_relocate`).
///
/// The device decides when to freeze and thaw, keeps the budget and counts the work; this
/// type does the I/O.
final class Freezer {
    /// The codec and page size of compressed freezing (nil: pages are written as they are).
    let compression: (codec: PageCodec, pageBytes: Int)?

    /// What one freeze or thaw moved.
    struct Transfer {
        /// Bytes written to (or read from) the file.
        var storageBytes: Int
        /// Bytes compressed (or decompressed), when the freezer compresses: the original
        /// size of everything in the file.
        var originalBytes: Int?
        /// Of ``originalBytes`` written, those that were compressed already (moved from the
        /// pool): the freezer did not compress them.
        var relocatedBytes = 0
    }

    init(compression: (codec: PageCodec, pageBytes: Int)?) {
        self.compression = compression
    }

    /// Writes `app`'s memory to its file and frees it; nil when a write failed (what was
    /// written is read back first, so nothing is lost, and the file is removed; when memory
    /// was being moved from the pool, ``Failure/lost`` says the app cannot be put together
    /// again and must die).
    ///
    /// - Parameter limitBytes: the most resident memory to write (iOS 18's budget cap): regions
    ///   (a controller's memory, then the app-wide data) are written while the next one fits,
    ///   and the rest stays resident; compressed regions move to the file whatever the cap (XNU
    ///   relocates compressed pages without counting them).
    func freeze(_ app: Application, name: String, limitBytes: Int? = nil) -> Result<Transfer, Failure> {
        let path = Self.path(of: app, name: name)
        // What is in the swap file comes back first: the freezer writes the app whole.
        for controller in app.controllers { controller.swapInMemory() }
        guard app.swapInAppData() else { return .failure(.lost) }
        guard let file = try? FreezerFile(path: path, mode: .write) else { return .failure(.nothingWritten) }
        let compressing = compressingStore(file)
        let store: any PageStore = compressing ?? file
        var ok = true
        var moved = false
        var written = 0, capped = false
        /// Whether a resident region of `bytes` still fits the cap (none: always).
        func fits(_ bytes: @autoclosure () -> Int) -> Bool {
            guard let limitBytes, !capped else { return !capped }
            let region = bytes()
            if written + region > limitBytes { capped = true } else { written += region }
            return !capped
        }
        for controller in app.controllers where ok {
            if controller.isCompressed, let compressing {
                moved = true
                ok = controller.relocateCompressedMemory(to: compressing)
            } else if fits(app.runtime.measuredBytes(of: controller.id).values.reduce(0, +)) {
                ok = controller.freezeMemory(to: store)
            }
        }
        if ok, app.isAppDataCompressed, let compressing {
            moved = true
            ok = app.relocateCompressedAppData(to: compressing)
        } else if ok, fits(app.appDataHeldBytes) {
            ok = app.freezeAppData(to: store)
        }
        if ok, capped, !moved, written == 0 {
            file.close()
            remove(app, name: name)
            return .failure(.nothingFits)
        }
        ok = ok && file.sync()
        file.close()
        guard ok else {
            if moved {
                remove(app, name: name)
                return .failure(.lost)
            }
            if let reader = try? FreezerFile(path: path, mode: .read) {
                // What the file had staged but could not write is read after its bytes.
                reader.adoptUnwritten(of: file)
                let readingCompressed = compressingStore(reader)
                // What the writer had packed but not yet written is read after the file.
                if let compressing { readingCompressed?.adoptUnwritten(of: compressing) }
                let readStore: any PageStore = readingCompressed ?? reader
                for controller in app.controllers { _ = controller.thawMemory(from: readStore) }
                _ = app.thawAppData(from: readStore)
            }
            remove(app, name: name)
            return .failure(.nothingWritten)
        }
        return .success(Transfer(storageBytes: file.bytesTransferred, originalBytes: compressing?.originalBytes,
                                 relocatedBytes: compressing?.relocatedBytes ?? 0))
    }

    /// Why a freeze failed.
    enum Failure: Error {
        /// Nothing is lost: the app's memory is as it was.
        case nothingWritten
        /// The cap left room for no region: nothing was written.
        case nothingFits
        /// Memory moved from the pool could not all be written: the app must die.
        case lost
    }

    /// Reads `app`'s memory back (allocations admitted by its gate) and removes the file.
    func thaw(_ app: Application, name: String) throws(RuntimeError) -> Transfer {
        let file = try FreezerFile(path: Self.path(of: app, name: name), mode: .read)
        file.gate = app.runtime.memoryGate
        let compressing = compressingStore(file)
        let store: any PageStore = compressing ?? file
        let corrupt = RuntimeError.bundle(path: file.path, reason: "the freezer file is shorter than the frozen memory, or corrupt")
        for controller in app.controllers {
            guard controller.thawMemory(from: store) else { throw corrupt }
        }
        guard app.thawAppData(from: store) else { throw corrupt }
        file.close()
        remove(app, name: name)
        return Transfer(storageBytes: file.bytesTransferred, originalBytes: compressing?.originalBytes)
    }

    /// Removes an app's freezer file (a missing one is fine).
    func remove(_ app: Application, name: String) {
        HostFiles.remove(FilePath(Self.path(of: app, name: name)))
    }

    /// `<bundle>/<name>.frozen`.
    static func path(of app: Application, name: String) -> String {
        "\(app.runtime.bundle.directory)/\(name).frozen"
    }

    /// With a compressor, the freezer writes and reads compressed pages through `file`.
    private func compressingStore(_ file: FreezerFile) -> CompressingPageStore? {
        compression.map { CompressingPageStore(file: file, codec: $0.codec, pageBytes: $0.pageBytes) }
    }
}
