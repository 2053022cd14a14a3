import Foundation
import PressureLab
import PressureLabHeap

/// The fuzz builds link libFuzzer into every product of this package, and its driver
/// needs a fuzz callback; this program never runs the driver.
@_cdecl("LLVMFuzzerTestOneInput")
public func unusedFuzzCallback(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt { 0 }

/// Writes the seed corpora of the binary formats with the runtime's own encoders, plus a
/// few damaged copies: `FuzzSeedWriter CORPUS_DIR` (normally `Fuzz/Corpus`). Run it again
/// when a format changes; the files it writes are committed.
@main
enum FuzzSeedWriter {
    static func main() throws {
        let arguments = CommandLine.arguments
        guard arguments.count == 2 else {
            FileHandle.standardError.write(Data("usage: FuzzSeedWriter CORPUS_DIR\n".utf8))
            exit(64)
        }
        let corpus = arguments[1]
        try writeViewDescriptions(into: "\(corpus)/FuzzViewDescription/seed")
        try writeRestorationArchives(into: "\(corpus)/FuzzRestoration/seed")
        try writeFreezerFiles(into: "\(corpus)/FuzzFreezerFile/seed")
    }

    // MARK: - Compressed freezer files

    static func writeFreezerFiles(into directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let formats: [(String, PageCodec, Int)] = [("lz4-4k", .lz4, 4096), ("zstd-16k", .zstd, 16_384)]
        for (name, codec, pageBytes) in formats {
            guard let file = FreezerFileFuzzing.sampleFile(codec: codec, pageBytes: pageBytes, blocks: 5, seed: 3) else {
                throw CocoaError(.fileWriteUnknown)
            }
            try file.write(to: URL(fileURLWithPath: "\(directory)/\(name).frozen"))
        }
        let valid = try Data(contentsOf: URL(fileURLWithPath: "\(directory)/lz4-4k.frozen"))
        func damaged(_ name: String, _ change: (inout Data) -> Void) throws {
            var bytes = valid
            change(&bytes)
            try bytes.write(to: URL(fileURLWithPath: "\(directory)/\(name).frozen"))
        }
        try damaged("damaged-truncated") { $0.removeLast($0.count / 3) }
        try damaged("damaged-original-0") { $0.replaceSubrange(0..<4, with: [0, 0, 0, 0]) }
        try damaged("damaged-stored-huge") { $0.replaceSubrange(4..<8, with: [0xFF, 0xFF, 0xFF, 0x7F]) }
        try damaged("damaged-raw-flag") { $0[7] ^= 0x80 }
        try damaged("damaged-body") { bytes in
            for index in stride(from: 8, to: min(bytes.count, 400), by: 7) { bytes[index] ^= 0x5A }
        }
    }

    // MARK: - View descriptions

    static func writeViewDescriptions(into directory: String) throws {
        let bundle = try ViewBundle(directory: directory)
        let shapes: [(String, ViewDescription)] = [
            ("single", try .single(bytes: 64, backing: 4096)),
            ("tree-2x3", try .tree(depth: 2, fanout: 3, bytes: 256, rootBacking: 1 << 16)),
            ("deep-6", try .deep(count: 6, bytes: 128)),
            ("wide-5", try .wide(count: 5, bytes: 512, rootBacking: 1 << 12)),
            ("balanced-9", try .balanced(count: 9, fanout: 2, bytes: 32)),
        ]
        for (name, description) in shapes { try bundle.write(description, for: name) }

        let valid = try Data(contentsOf: URL(fileURLWithPath: bundle.descriptionPath(for: "tree-2x3")))
        func damaged(_ name: String, _ change: (inout Data) -> Void) throws {
            var bytes = valid
            change(&bytes)
            try bytes.write(to: URL(fileURLWithPath: bundle.descriptionPath(for: name)))
        }
        try damaged("damaged-truncated-record") { $0.removeLast(10) }
        try damaged("damaged-header-only") { $0.removeLast($0.count - 24) }
        try damaged("damaged-short-header") { $0.removeLast($0.count - 11) }
        try damaged("damaged-bad-magic") { $0[0] = UInt8(ascii: "X") }
        try damaged("damaged-version-2") { $0[4] = 2 }
        try damaged("damaged-count-huge") { $0.replaceSubrange(8..<16, with: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F]) }
        try damaged("damaged-checksum") { $0[16] ^= 0x01 }
        try damaged("damaged-negative-bytes") { $0[24 + 7] = 0x80 }
        try damaged("damaged-too-many-children") { $0[24 + 16] = 200 }
    }

    // MARK: - Restoration archives

    static func writeRestorationArchives(into directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let hierarchies: [(String, HierarchySpec, Bool)] = [
            ("screen", .screen("inbox"), false),
            ("navigation-typed", .navigation(["inbox", "message", "compose"]), false),
            ("tabs-modal", .tabs([.navigation(["inbox", "message"]), .screen("settings"), .screen("compose")], selected: 1), true),
        ]
        for (name, hierarchy, presentsModal) in hierarchies {
            let runtime = try RuntimeContext(app: "mail")
            for screen in try screens() { try runtime.register(screen) }
            let path = "\(directory)/\(name).restoration"
            let app = Application(name: "mail", runtime: runtime, hierarchy: hierarchy, archivePath: path)
            try app.launch()
            for (index, controller) in app.controllers.enumerated() where index % 2 == 1 { controller.type(bytes: 24) }
            if presentsModal, let context = app.window.presentationContext {
                let modal = try runtime.makeController(screen: "compose")
                try context.present(modal)
                modal.type(bytes: 16)
            }
            try app.home()
        }

        let valid = try Data(contentsOf: URL(fileURLWithPath: "\(directory)/navigation-typed.restoration"))
        func damaged(_ name: String, _ change: (inout Data) -> Void) throws {
            var bytes = valid
            change(&bytes)
            try bytes.write(to: URL(fileURLWithPath: "\(directory)/\(name).restoration"))
        }
        try damaged("damaged-truncated") { $0.removeLast($0.count / 2) }
        try damaged("damaged-no-checksum") { bytes in
            if let line = bytes.range(of: Data("\n#checksum".utf8), options: .backwards) { bytes.removeSubrange(line.lowerBound...) }
        }
        try damaged("damaged-altered") { $0[$0.startIndex + 2] ^= 0x20 }
        try damaged("damaged-format-2") { bytes in
            if let format = bytes.range(of: Data("\"format\":1".utf8)) { bytes.replaceSubrange(format, with: Data("\"format\":2".utf8)) }
        }
        try damaged("damaged-unknown-kind") { bytes in
            if let kind = bytes.range(of: Data("\"kind\":\"navigation\"".utf8)) {
                bytes.replaceSubrange(kind, with: Data("\"kind\":\"carousel\"".utf8))
            }
        }
    }

    /// The screens the archives' hierarchies use: small trees, so that launching is quick.
    static func screens() throws -> [ScreenSpec] {
        try ["inbox", "message", "compose", "settings"].map { name in
            ScreenSpec(name: name, view: try .tree(depth: 1, fanout: 2, bytes: 256, rootBacking: 4096))
        }
    }
}
