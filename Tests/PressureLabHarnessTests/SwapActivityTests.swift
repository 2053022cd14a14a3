import Foundation
import PressureLabHarness
import Testing

/// The device experiment's swap counters as a result file carries them.
@Suite("Device experiment: swap activity in results")
struct SwapActivityTests {
    @Test("the swap file's peak and capacity round-trip, and a result from before them reads as 0")
    func peakAndCapacity() throws {
        let activity = DeviceExperiment.SwapActivity(backgroundCollections: 53, collectionPageIns: 4, collectionPageInBytes: 99_549_184,
                                                     swappedOutBytes: 2_803_417_088, swapPeakBytes: 793_116_672,
                                                     swapFileBytes: 2_149_580_800)
        let data = try JSONEncoder().encode(activity)
        #expect(try JSONDecoder().decode(DeviceExperiment.SwapActivity.self, from: data) == activity)
        let older = #"{"backgroundCollections":3,"collectionPageIns":1,"collectionPageInBytes":4096,"swappedOutBytes":8192}"#
        let read = try JSONDecoder().decode(DeviceExperiment.SwapActivity.self, from: Data(older.utf8))
        #expect(read == DeviceExperiment.SwapActivity(backgroundCollections: 3, collectionPageIns: 1, collectionPageInBytes: 4096,
                                                      swappedOutBytes: 8192))
        #expect(read.swapPeakBytes == 0 && read.swapFileBytes == 0)
    }
}
