import Foundation
import Testing
import TestSupport

/// A `profiles` folder in the working directory: its profiles added to the bundled ones.
@Suite("Profiles: a local profiles folder beside the bundled ones")
struct LocalProfileFolderTests {
    @Test("a local profiles folder adds to the bundled profiles; a same-named local one wins, said once on standard error")
    func localProfiles() throws {
        let directory = try Executable.temporaryDirectory("local-profiles")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("profiles"), withIntermediateDirectories: true)
        let round = try String(contentsOfFile: ProfileDisplayScaleTests.round, encoding: .utf8)
        try round.write(toFile: directory.appendingPathComponent("profiles/mine.yaml").path, atomically: true, encoding: .utf8)
        let bundled = try Executable.run(["run", Executable.small, "--profile", "iphone-xs-2018"], in: directory)
        #expect(bundled.status == 0, "\(bundled.stderr)")
        let mine = try Executable.run(["run", Executable.small, "--profile", "mine"], in: directory)
        #expect(mine.status == 0, "\(mine.stderr)")
        let shadow = round.replacingOccurrences(of: "name: round", with: "name: pixel-3-2018")
        try shadow.write(toFile: directory.appendingPathComponent("profiles/pixel-3-2018.yaml").path, atomically: true, encoding: .utf8)
        let shadowed = try Executable.run(["run", Executable.small, "--profile", "pixel-3-2018"], in: directory)
        #expect(shadowed.status == 0, "\(shadowed.stderr)")
        #expect(shadowed.stderr.components(separatedBy: "takes the place of the bundled profile").count == 2, "\(shadowed.stderr)")
        #expect(shadowed.stderr.contains("pressurelab: profile pixel-3-2018: using \(directory.path)/profiles/pixel-3-2018.yaml, which takes "
            + "the place of the bundled profile of that name\n"))
    }
}
