import Foundation
import Variants

/// The SHA-256 of a file, read in 1 MiB pieces so a source of any size (a video beside the pictures) costs
/// the same memory. The batch hashes a source itself only to look it up in the manifest and to name it on
/// an error line; decoder children hash what they decode.
enum SourceChecksum {
    /// The lowercase hex digest, or nil when the file cannot be read.
    static func of(_ path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let digest = SHA256.Incremental()
        do {
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                digest.update([UInt8](chunk))
            }
        } catch {
            return nil
        }
        return digest.finish()
    }
}
