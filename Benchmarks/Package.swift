// swift-tools-version: 6.1
//
// PressureLab's benchmarks: the simulator's own speed next to the raw allocator.
// A package of its own so that `swift test` of the main package does not build
// ordo-one/benchmark. Run: `swift package benchmark` (from this directory).

import Foundation
import PackageDescription

// A path dependency's identity is its directory's name, which depends on where the
// repository was cloned; read it instead of assuming it.
let mainPackage = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "PressureLabBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: "../"),
        // No traits: the malloc interposer puts a 16-byte header on every allocation
        // (a 4 KiB block becomes a 5 KiB size class) and adds a cost per call, which would
        // distort exactly what these benchmarks measure. Allocation counts and bytes come
        // from jemalloc's own counters instead.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: []),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
    ],
    targets: [
        .executableTarget(
            name: "AllocationPath",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "PressureLab", package: mainPackage),
                .product(name: "PressureLabHeap", package: mainPackage),
                .product(name: "PressureLabHarness", package: mainPackage),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            path: "Benchmarks/AllocationPath",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
