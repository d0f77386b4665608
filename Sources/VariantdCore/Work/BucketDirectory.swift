import Foundation
import Variants

/// The bucket declarations a worker renders by: `DIR/<bucket>.json`, read again for every job so an edited
/// declaration applies to the next job without a restart.
struct BucketDirectory: Sendable {
    let path: String

    /// The declaration text for a bucket, or nil when the bucket declares nothing (the job then reports
    /// metadata and renders no variant).
    func declaration(for bucket: String) throws(VariantsError) -> String? {
        let allowed = bucket.unicodeScalars.allSatisfy {
            CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0)
        }
        guard allowed, !bucket.hasPrefix("."), bucket.count <= 255 else {
            throw VariantsError(.invalidRequest, "'\(bucket)' is not a bucket name")
        }
        return FileManager.default.contents(atPath: "\(path)/\(bucket).json").map {
            String(decoding: $0, as: UTF8.self)
        }
    }
}
