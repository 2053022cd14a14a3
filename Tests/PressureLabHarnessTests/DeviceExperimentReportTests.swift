import Foundation
import PressureLabHarness
import Testing

/// `pressurelab device --format html`: both alive curves per configuration, errors computed.
@Suite("Device experiment report: modelled beside published")
struct DeviceExperimentReportTests {
    static let configuration = DeviceExperimentReport.Configuration(
        name: "android-swap", aliveAfterLaunch: Array(repeating: 4, count: 18) + Array(repeating: 6, count: 18),
        hotLaunchDeviceNs: ["Chrome": LatencySummary(count: 3, p50: 150_000_000, p90: 160_000_000, p99: 160_000_000, max: 160_000_000)],
        publishedAlive: Array(repeating: 5, count: 36), publishedHotLaunchMs: ["Chrome": [100, 120, 500], "Line": [90]])

    @Test("each configuration has the modelled curve and the published one, a point a launch")
    func bothCurves() {
        let page = DeviceExperimentReport.html(experiment: "fleet-18", source: "Fleet, ASPLOS 2024", configurations: [
            Self.configuration,
            .init(name: "freezer", aliveAfterLaunch: [1, 2, 3], hotLaunchDeviceNs: [:], publishedAlive: nil, publishedHotLaunchMs: nil),
        ])
        #expect(page.components(separatedBy: "data-series=\"modelled\" data-points=\"36\"").count == 2)
        #expect(page.components(separatedBy: "data-series=\"published\" data-points=\"36\"").count == 2)
        // A configuration nobody published has the modelled curve only.
        #expect(page.contains("data-series=\"modelled\" data-points=\"3\""))
        #expect(page.components(separatedBy: "data-series=\"published\"").count == 2)
        #expect(page.contains("published (measured)") && page.contains("Fleet, ASPLOS 2024"))
    }

    @Test("mean and max alive and hot-launch p50 beside the published median, with relative errors")
    func errors() {
        let page = DeviceExperimentReport.html(experiment: "fleet-18", source: nil, configurations: [Self.configuration])
        // Mean 5.00 modelled against 5.00 published: +0.0%; max 6 against 5: +20.0%.
        #expect(page.contains("<tr><td>relative error</td><td>+0.0%</td><td>+20.0%</td></tr>"))
        // Chrome: 150.0 ms modelled, median 120.0 ms published: +25.0%; Line has no modelled figure.
        #expect(page.contains("<tr><td>Chrome</td><td>150.0</td><td>120.0</td><td>+25.0%</td></tr>"))
        #expect(page.contains("<tr><td>Line</td><td>-</td><td>90.0</td><td>-</td></tr>"))
    }
}
