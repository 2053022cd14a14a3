import ArgumentParser
import Foundation
import PressureLabHarness

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
    }

    func run() throws {
        let file: ResultsFile
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: results))
            file = try JSONDecoder().decode(ResultsFile.self, from: data)
        } catch {
            StandardError.write("pressurelab: \(results): not a readable pressurelab.results/1 file: \(error)\n")
            throw ExitCodes.runFailed
        }
        try writeReports(file, html: html, markdown: markdown)
    }
}

/// Writes the HTML and Markdown reports that were asked for.
func writeReports(_ file: ResultsFile, html: String?, markdown: String?) throws {
    do {
        if let html { try HTMLReport.render(file).write(toFile: html, atomically: true, encoding: .utf8) }
        if let markdown {
            let text = MarkdownReport.render(file)
            if markdown == "-" { print(text, terminator: "") } else { try text.write(toFile: markdown, atomically: true, encoding: .utf8) }
        }
    } catch {
        StandardError.write("pressurelab: cannot write the report: \(error.localizedDescription)\n")
        throw ExitCodes.runFailed
    }
}
