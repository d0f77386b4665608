import Foundation
import Variants

/// Reads and validates a bucket declaration file given on the command line: a bad one is a usage error,
/// reported with the field path the parser names.
enum BucketDeclarationFile {
    static func read(_ path: String) throws(UsageError) -> BucketDeclaration {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageError("The bucket declaration '\(path)' cannot be read")
        }
        do {
            return try BucketDeclaration(parsing: data)
        } catch {
            throw UsageError("The bucket declaration '\(path)' is invalid: \(error.message)")
        }
    }
}
