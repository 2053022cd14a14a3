// swift-tools-version: 6.0
//
// PressureLab: an app runtime under memory pressure, with real memory.
// Dependencies flow one way: CJemalloc <- PressureLabHeap <- PressureLab <- PressureLabHarness <- PressureLabSweep
// <- PressureLabCommandLine <- pressurelab (docs/architecture.md).

import PackageDescription

/// swift-system: `FileDescriptor`, `FilePath` and `Errno` for every file the project touches.
let system: Target.Dependency = .product(name: "SystemPackage", package: "swift-system")

let package = Package(
    name: "PressureLab",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "PressureLab", targets: ["PressureLab"]),
        .library(name: "PressureLabHarness", targets: ["PressureLabHarness"]),
        .library(name: "PressureLabHeap", targets: ["PressureLabHeap"]),
        // The command line as a library: a program of yours registers its policies and is
        // PressureLab's command line (examples/custom-policy).
        .library(name: "PressureLabCommandLine", targets: ["PressureLabCommandLine"]),
        // Expectations for your own tests (Swift Testing and XCTest).
        .library(name: "PressureLabTesting", targets: ["PressureLabTesting"]),
        // For the fuzz package (Fuzz/) only: not a library to build on.
        .library(name: "PressureLabFuzzEntryPoints", targets: ["PressureLabFuzzEntryPoints"]),
        .executable(name: "pressurelab", targets: ["pressurelab"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // `swift package generate-documentation`: the DocC catalogs' static site (scripts/docs.sh).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CJemalloc",
            pkgConfig: "jemalloc",
            providers: [.apt(["libjemalloc-dev"]), .brew(["jemalloc"])]
        ),
        // liblz4 is linked from its static archive on Linux (PressureLabHeap's linker settings):
        // the per-page entry that reuses the codec's table without clearing it,
        // `LZ4_compress_fast_extState_fastReset`, is in liblz4.a but hidden in liblz4.so.
        .systemLibrary(name: "CLZ4", providers: [.apt(["liblz4-dev"]), .brew(["lz4"])]),
        .systemLibrary(name: "CZstd", pkgConfig: "libzstd", providers: [.apt(["libzstd-dev"]), .brew(["zstd"])]),
        // jemalloc's compiled-in options (`malloc_conf`): see options.c and docs/limits.md.
        .target(name: "CJemallocOptions", dependencies: ["CJemalloc"]),
        // System calls Swift cannot make itself (the C library's syscall() is variadic): cachestat.
        .target(name: "CHostCalls"),
        // The host's door: the only code that talks to jemalloc, to the compressors and
        // (through swift-system) to the file system.
        .target(
            name: "PressureLabHeap",
            dependencies: ["CJemalloc", "CJemallocOptions", "CHostCalls", "CLZ4", "CZstd", system],
            linkerSettings: [
                .linkedLibrary(":liblz4.a", .when(platforms: [.linux])),
                .linkedLibrary("lz4", .when(platforms: [.macOS])),
            ]
        ),
        .target(
            name: "PressureLab",
            dependencies: ["PressureLabHeap", system, .product(name: "Histogram", package: "hdrhistogram-swift")]
        ),
        .target(
            name: "PressureLabHarness",
            dependencies: ["PressureLab", "PressureLabHeap", system, .product(name: "Yams", package: "Yams")],
            // The bundled scenarios and profiles travel inside the binary (an installed tool has
            // no checkout); `scenarios/` and `profiles/` at the top are links to these folders.
            resources: [.embedInCode("Bundled")]
        ),
        // Dumps developers already print (meminfo, recursiveDescription, uiautomator, vmmap)
        // turned into scenario files: reads text, writes YAML, never runs a simulation.
        .target(name: "PressureLabImport", dependencies: ["PressureLabHarness", "PressureLab", "PressureLabHeap", system]),
        // Grids of runs: sweep files, worker processes, shards, merging, SQLite.
        .target(
            name: "PressureLabSweep",
            dependencies: [
                "PressureLabHarness", "PressureLab", "PressureLabHeap", system,
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .target(
            name: "PressureLabCommandLine",
            dependencies: [
                "PressureLabSweep", "PressureLabImport", "PressureLabHarness", "PressureLab", "PressureLabHeap", system,
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "pressurelab", dependencies: ["PressureLabCommandLine"]),
        .target(name: "PressureLabTesting", dependencies: ["PressureLabHarness", "PressureLab"]),
        // The fuzz targets' byte entry points, one a reader (Fuzz/ builds the targets; the tests
        // replay the corpora through them): beside the fuzz package, outside the shipping libraries.
        .target(name: "PressureLabFuzzEntryPoints",
                dependencies: ["PressureLabSweep", "PressureLabImport", "PressureLabHarness", "PressureLab", "PressureLabHeap"],
                path: "Fuzz/EntryPoints"),
        // Measurements that need a quiet process: the tests start it (see its main.swift).
        .executableTarget(name: "pressurelab-probe", dependencies: ["PressureLab", "PressureLabHeap"]),
        // The command line with policies that loop or make mistakes: the tests of time limits run it.
        .executableTarget(name: "pressurelab-hostile", dependencies: ["PressureLabCommandLine", "PressureLab"],
                          path: "Tests/HostileLab"),
        .testTarget(name: "PressureLabHeapTests", dependencies: ["PressureLabHeap", system]),
        .testTarget(name: "PressureLabTests", dependencies: ["PressureLab", "PressureLabHeap", "PressureLabFuzzEntryPoints"]),
        .testTarget(
            name: "PressureLabHarnessTests",
            dependencies: [
                "PressureLabHarness", "PressureLabSweep", "PressureLabFuzzEntryPoints", "PressureLab",
                "TestSupport", .product(name: "Yams", package: "Yams"), .product(name: "GRDB", package: "GRDB.swift"),
            ],
            exclude: ["Fixtures", "Snapshots"]
        ),
        // The importers' tests; their dumps in Fixtures/dumps (the shared fixtures, such as the
        // test profile, are the harness tests', through TestSupport).
        .testTarget(
            name: "PressureLabImportTests",
            dependencies: ["PressureLabImport", "PressureLabHarness", "PressureLab", "PressureLabHeap", "TestSupport"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "PressureLabSweepTests",
            dependencies: ["PressureLabSweep", "PressureLabHarness", "PressureLab", "TestSupport",
                           .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(name: "PressureLabTestingTests",
                    dependencies: ["PressureLabTesting", "PressureLabHarness", "PressureLab", "TestSupport"]),
        // What the test targets share: running the built executable, the fixtures' paths.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
    ]
)

// Strict builds: Swift 6 language mode everywhere; a warning is a defect.
for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    target.swiftSettings = settings
}
