import ArgumentParser
import Foundation
import PressureLabHarness
import PressureLabHeap
import SystemPackage

/// `pressurelab report RESULTS.json --html FILE [--markdown FILE]`
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report", abstract: "Render a results file as a self-contained HTML page (SVG charts) or Markdown.")

    @Argument(help: "A results file (pressurelab.results/1 JSON).")
    var results: String

    @Option(name: .long, help: "Write the HTML report to this file.")
    var html: String?

    @Option(name: .long, help: "Write the Markdown report to this file ('-' for standard output).")
    var markdown: String?

    func validate() throws {
        guard html != nil || markdown != nil else { throw ValidationError("give --html FILE, --markdown FILE, or both") }
        try OutputOptions.requireDistinct([("--html", html), ("--markdown", markdown == "-" ? nil : markdown)])
    }

    func run() throws {
        let file: ResultsFile
        do {
            let data = Data(try InputKind.results.contents(of: results))
            file = try ResultsFile.decode(data, path: results)
        } catch let error as ResultsFileError {
            StandardError.write("pressurelab: \(error)\n")
            throw ExitCodes.runFailed
        } catch {
            StandardError.write("pressurelab: \(results): cannot read the file: \(error)\n")
            throw ExitCodes.runFailed
        }
        try writeReports(file, html: html, markdown: markdown)
    }
}
