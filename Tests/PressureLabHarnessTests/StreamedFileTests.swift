import Foundation
@testable import PressureLab
@testable import PressureLabHarness
import PressureLabHeap
import PressureLabSweep
import SystemPackage
import Testing
import TestSupport

/// Memory and disk the budget does not see: model files written when a model is first read,
/// a megabyte at a time; traces read a chunk at a time.
@Suite("Model files and traces: written when first read, read and written a piece at a time", .serialized)
struct StreamedFileTests {
    @Test("a model file is written when the model is first read, never at install; streamed, equal to a whole fill")
    func lazyStreamedModel() throws {
        let runtime = try RuntimeContext(app: "models", generation: .iOS6, trace: TraceRecorder(isEnabled: false))
        runtime.contents = MemoryContents(ratios: [.model: 3], pageBytes: 4096, seed: 7)
        let fill = try #require(runtime.contents?[.model])
        try runtime.register(ScreenSpec(name: "never", view: try ViewDescription.single(bytes: 64), modelBytes: 3 << 30))
        try runtime.register(ScreenSpec(name: "shown", view: try ViewDescription.single(bytes: 64), modelBytes: (5 << 20) + 123))
        let bundle = runtime.bundle
        #expect(HostFiles.statusIfPresent(FilePath(bundle.modelPath(for: "never"))) == nil)
        #expect(HostFiles.statusIfPresent(FilePath(bundle.modelPath(for: "shown"))) == nil)
        let model = try bundle.readModel(for: "shown")
        #expect(model.count == (5 << 20) + 123)
        // Written a megabyte at a time, the file is the block a single fill makes.
        var whole = [UInt8](repeating: 0, count: (5 << 20) + 123)
        let salt = UInt64(ModelPattern.byte(for: "shown"))
        whole.withUnsafeMutableBytes { fill.fill($0, salt: salt) }
        let written = try HostFiles.contents(of: FilePath(bundle.modelPath(for: "shown")))
        #expect(written.count == whole.count)
        #expect(written.firstIndex { $0 != 0 } != nil)
        #expect(written.indices.first { written[$0] != whole[$0] } == nil, "the streamed model differs from a whole fill")
        #expect(HostFiles.statusIfPresent(FilePath(bundle.modelPath(for: "never"))) == nil)
    }

    @Test("a run with ten unshown 3 GiB models and a 48 MiB budget writes no model file and holds none")
    func unshownModels() throws {
        let path = Executable.fixtures.appendingPathComponent("hostile/unshown-models.yaml").path
        let scenario = try ScenarioLoader().load(path: path)
        #expect(scenario.declaredModelFileBytes == 0)
        let run = try Simulation(scenario, cleanup: .ios6, termination: .jetsam, profile: try ProfileLibrary.load(nil)).run()
        #expect(run.metrics.peakRetainedBytes < 1 << 20)
        #expect(run.metrics.work?.storageWriteBytes == 0)
    }

    @Test("a trace is read a chunk at a time: the same events whatever the chunks; its events must fit the host")
    func streamedTrace() throws {
        let path = Executable.fixtures.appendingPathComponent("traces/lsapp-small.tsv").path
        let whole = try LSAppTrace.parse(String(decoding: try HostFiles.contents(of: FilePath(path)), as: UTF8.self), path: path)
        let streamed = try LSAppTrace.parse(path: path)
        #expect(streamed.users == whole.users)
        for user in whole.users { #expect(streamed.events(of: user) == whole.events(of: user)) }
        // A line split across reads: feed the text 7 bytes at a time.
        var reader = LSAppTrace.Reader(path: path)
        let bytes = try HostFiles.contents(of: FilePath(path))
        for start in stride(from: 0, to: bytes.count, by: 7) { try reader.feed(bytes[start..<min(bytes.count, start + 7)]) }
        let chunked = try reader.finish()
        for user in whole.users { #expect(chunked.events(of: user) == whole.events(of: user)) }
        #expect {
            _ = try LSAppTrace.parse(path: path, hostLimitBytes: 100)
        } throws: { error in
            (error as? TraceError)?.reason.hasSuffix("which take more than the 100 bytes this host allows a simulation") == true
        }
    }
}
