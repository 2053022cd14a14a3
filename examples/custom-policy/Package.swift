// swift-tools-version: 6.0
//
// A package of your own that builds on PressureLab: a cleanup policy and a termination policy
// written in Swift (CustomPolicies), PressureLab's command line with both registered
// (custom-lab), and footprint gates written with the test product (CustomPoliciesTests).
// In your package, depend on PressureLab by URL; here it is the repository two folders up.

import Foundation
import PackageDescription

// A path dependency's identity is its folder's name, which depends on where the repository
// was cloned: read it instead of assuming it.
let pressureLab = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "CustomPolicy",
    platforms: [.macOS(.v13)],
    dependencies: [.package(path: "../..")],
    targets: [
        .target(name: "CustomPolicies", dependencies: [.product(name: "PressureLab", package: pressureLab),
                                                       .product(name: "PressureLabHarness", package: pressureLab)]),
        .executableTarget(name: "custom-lab", dependencies: [
            "CustomPolicies", .product(name: "PressureLabCommandLine", package: pressureLab),
        ]),
        .testTarget(name: "CustomPoliciesTests", dependencies: [
            // One import for a test: PressureLabTesting brings PressureLab and its harness.
            "CustomPolicies", .product(name: "PressureLabTesting", package: pressureLab),
        ]),
    ]
)
