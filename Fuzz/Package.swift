// swift-tools-version: 6.0
//
// PressureLab's fuzz targets: one libFuzzer executable per reader of the tool's input files.
// A package of its own so that the main package's builds and tests never need libFuzzer.
// Build and run one target with `bash scripts/fuzz.sh TARGET SECONDS` (from the repository).

import Foundation
import PackageDescription

// A path dependency's identity is its directory's name, which depends on where the
// repository was cloned; read it instead of assuming it.
let mainPackage = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

/// Each fuzz target and the reader it drives (see `FuzzEntryPoints` in PressureLabHarness).
let fuzzTargets = ["FuzzScenario", "FuzzRestoration", "FuzzViewDescription", "FuzzBaseline", "FuzzThresholds", "FuzzResults", "FuzzProfile",
                   "FuzzTrace", "FuzzSweep", "FuzzMeminfo", "FuzzViews", "FuzzUIAutomator", "FuzzVmmap",
                   "FuzzFreezerFile"]

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
