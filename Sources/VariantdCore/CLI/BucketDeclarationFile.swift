import Foundation
import Variants

/// Reads and validates a bucket declaration file given on the command line: a bad one is a usage error,
/// reported with the field path the parser names. Its watermarks' files are read from its folder.
enum BucketDeclarationFile {
    static func read(_ path: String) throws(UsageError) -> BucketDeclaration {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageError("The bucket declaration '\(path)' cannot be read")
        }
        do {
            let folder = (path as NSString).deletingLastPathComponent
            return try BucketDeclaration(
                parsing: data, readFile: WatermarkFiles.reader(folder: folder.isEmpty ? "." : folder))
        } catch {
            throw UsageError("The bucket declaration '\(path)' is invalid: \(error.message)")
        }
    }
}
