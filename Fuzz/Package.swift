// swift-tools-version: 6.0
//
// PressureLab's fuzz targets: one libFuzzer executable per reader of the tool's input files.
// A package of its own so that the main package's builds and tests never need libFuzzer.
// The targets are listed in targets.txt. Build and run one with `bash scripts/fuzz.sh TARGET SECONDS`,
// or each in turn with `bash scripts/fuzz.sh --all SECONDS` (from the repository).

import Foundation
import PackageDescription

// A path dependency's identity is its directory's name, which depends on where the
// repository was cloned; read it instead of assuming it.
let mainPackage = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

/// The fuzz targets, one a line of `targets.txt` beside this file (the one list of them, which
/// scripts/fuzz.sh, .ci/run and the tests read too): each drives one reader (see
/// `FuzzEntryPoints` in Fuzz/EntryPoints).
let fuzzTargets: [String] = {
    let list = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("targets.txt")
    guard let text = try? String(contentsOf: list, encoding: .utf8) else { fatalError("cannot read \(list.path)") }
    return text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        .filter { !$0.isEmpty && !$0.hasPrefix("#") }
}()

let package = Package(
    name: "PressureLabFuzz",
    platforms: [.macOS(.v13)],
    dependencies: [.package(path: "../")],
    targets: [
        // libFuzzer's driver, declared (the library itself comes with -sanitize=fuzzer).
        .systemLibrary(name: "CLibFuzzer", path: "Support/CLibFuzzer"),
    ] + fuzzTargets.map { name in
        .executableTarget(
            name: name,
            dependencies: ["CLibFuzzer", .product(name: "PressureLabFuzzEntryPoints", package: mainPackage)],
            path: "Targets/\(name)"
        )
    } + [
        // Writes the binary formats' seed corpora with the runtime's own encoders.
        .executableTarget(
            name: "FuzzSeedWriter",
            dependencies: [.product(name: "PressureLab", package: mainPackage)],
            path: "SeedWriter"
        ),
    ]
)
