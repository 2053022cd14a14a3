import PressureLab
import Yams

/// How YAML files (scenarios, profiles, sweeps) become nodes: their text read through
/// ``TextInput``, then the prescan (``YAMLPrescan``), then Yams; every failure located.
extension ScenarioLoader {
    /// The text of a YAML file of `kind` (a scenario, a profile, a sweep), read through
    /// ``TextInput``; a file that cannot be read is a diagnostic at line 0, bytes that are not
    /// text one at their line and column.
    public static func text(of path: String, kind: InputKind) throws(ScenarioError) -> String {
        do {
            return try kind.text(of: path).text
        } catch {
            let (line, column) = error.location
            let what = kind == .scenario ? "file" : kind.rawValue
            let message = line == 0 ? "cannot read the \(what): \(error)" : "not a YAML text file: \(error)"
            throw ScenarioError(diagnostics: [.init(path: path, line: line, column: column, key: "", message: message)])
        }
    }

    /// The YAML of a scenario, profile or sweep file, composed after the prescan
    /// (`YAMLPrescan`); every failure is a located diagnostic, `whenEmpty` for an empty file.
    public static func compose(_ raw: String, path: String, whenEmpty: String) throws(ScenarioError) -> Node {
        // Text read from a file is normalised already; text given in memory (a merge, a test,
        // the fuzzer) is normalised here, so that the prescan and the composer see one set of lines.
        let text = TextInput.normalisingLineEnds(raw, lineBreaks: .yaml)
        if let finding = YAMLPrescan.check(text) {
            throw ScenarioError(diagnostics: [.init(path: path, line: finding.line, column: finding.column, key: "",
                                                    message: finding.message)])
        }
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw ScenarioError(diagnostics: [ScenarioReader.diagnostic(for: error, path: path, text: text)])
        } catch {
            throw ScenarioError(diagnostics: [.init(path: path, line: 1, column: 1, key: "", message: "\(error)")])
        }
        guard let root else {
            throw ScenarioError(diagnostics: [.init(path: path, line: 1, column: 1, key: "", message: whenEmpty)])
        }
        return root
    }
}
