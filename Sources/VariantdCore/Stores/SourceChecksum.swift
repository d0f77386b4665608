import Foundation
import Variants

/// The SHA-256 of a file, read in 1 MiB pieces so a source of any size (a video beside the pictures) costs
/// the same memory. Parents hash a source themselves only where they must know it before a child has
/// decoded it: the batch to look it up in its manifest, the decoder pool to check its quarantine.
package enum SourceChecksum {
    /// The lowercase hex digest, or nil when the file cannot be read.
    package static func of(_ path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let digest = SHA256.Incremental()
        do {
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                digest.update(chunk)
            }
        } catch {
            return nil
        }
        return digest.finish()
    }
}
