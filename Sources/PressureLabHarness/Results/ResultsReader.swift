import Foundation

/// Why a results file could not be read.
public enum ResultsFileError: Error, Equatable, CustomStringConvertible {
    /// The file is not JSON, or not the shape of `pressurelab.results/1`.
    case corrupt(path: String, reason: String)
    /// The file names another schema (or none): it is not a results file this build reads.
    case wrongSchema(path: String, found: String?)

    public var description: String {
        switch self {
        case .corrupt(let path, let reason):
            return "\(path): not a readable \(ResultsFile.schemaName) file: \(reason)"
        case .wrongSchema(let path, let found?):
            return "\(path): schema '\(found)'; this build reads \(ResultsFile.schemaName) files "
                + "(as written by 'pressurelab run --output')"
        case .wrongSchema(let path, nil):
            return "\(path): no 'schema' field; this build reads \(ResultsFile.schemaName) files "
                + "(as written by 'pressurelab run --output')"
        }
    }
}

extension ResultsFile {
    /// The schema this build reads and writes.
    public static let schemaName = "pressurelab.results/1"

    /// Decodes a results file's bytes; `path` names the file in errors. The schema is
    /// checked first, so a file of another kind (a baseline, say) is refused by name.
    public static func decode(_ data: Data, path: String) throws(ResultsFileError) -> ResultsFile {
        struct SchemaOnly: Decodable { var schema: String? }
        let schema: String?
        do {
            schema = try JSONDecoder().decode(SchemaOnly.self, from: data).schema
        } catch DecodingError.typeMismatch(_, let context) where context.codingPath.first?.stringValue == "schema" {
            throw .wrongSchema(path: path, found: nil)
        } catch {
            throw .corrupt(path: path, reason: "\(error)")
        }
        guard schema == schemaName else { throw .wrongSchema(path: path, found: schema) }
        do {
            return try JSONDecoder().decode(ResultsFile.self, from: data)
        } catch {
            throw .corrupt(path: path, reason: "\(error)")
        }
    }
}
