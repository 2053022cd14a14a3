// swift-tools-version: 6.0
//
// Your policies (CustomPolicies), PressureLab's command line with them registered (custom-lab),
// and footprint gates written with the test product (CustomPoliciesTests).

import Foundation
import PackageDescription

// Where you cloned PressureLab (`git clone <its repository> PressureLab`): put your clone's
// absolute path here, or a path relative to this folder.
let pressureLabPath = "/path/to/PressureLab"
// SwiftPM names a dependency on a folder after the folder, so the products below are looked
// up under the clone's folder name, whatever it is.
let pressureLab = URL(fileURLWithPath: pressureLabPath).lastPathComponent

let package = Package(
    name: "MyPolicies",
    platforms: [.macOS(.v13)],
    dependencies: [.package(path: pressureLabPath)],
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
