import Foundation
import Variants

/// Where a command keeps sources or renditions, as given on its command line: a folder, or an
/// object-storage location `s3://BUCKET[/PREFIX]` (configured from the AWS environment variables).
package enum StoreLocation: Sendable, CustomStringConvertible {
    case folder(String)
    case bucket(S3Location)

    package init(_ text: String) throws(UsageError) {
        guard S3Location.isLocation(text) else {
            self = .folder(text)
            return
        }
        do {
            self = .bucket(try S3Location(text))
        } catch {
            throw UsageError("Invalid location: \(error)")
        }
    }

    package var description: String {
        switch self {
        case .folder(let path): path
        case .bucket(let location): location.description
        }
    }

    /// The source objects at this location; a folder must exist.
    func objects(environment: [String: String]) throws(UsageError) -> any ObjectStore {
        switch self {
        case .folder(let path): try ObjectFolder(path)
        case .bucket(let location): S3ObjectStore(client: try Self.client(environment), location: location)
        }
    }

    /// The source objects at this location as render requests find their checksums; objects larger than
    /// `maxBytes` are refused; an object's identity is trusted for `window` after the store gave it.
    func renderSources(environment: [String: String], maxBytes: Int, window: Duration = .zero)
        throws(UsageError) -> any RenderSources
    {
        switch self {
        case .folder(let path): FolderSources(try ObjectFolder(path))
        case .bucket(let location):
            BucketSources(
                S3ObjectStore(client: try Self.client(environment), location: location), maxBytes: maxBytes,
                window: window)
        }
    }

    /// The rendition store at this location; a folder is created if needed.
    func renditions(environment: [String: String]) throws(UsageError) -> any RenditionCatalog {
        switch self {
        case .folder(let path):
            do {
                var folder = try RenditionFolder(root: path)
                WriteHealth.shared.watch(.renditionStore, directory: folder.root)
                folder.onWrite = { WriteHealth.shared.record(.renditionStore, failure: $0) }
                return folder
            } catch {
                throw UsageError("The rendition store cannot be used: \(error.message)")
            }
        case .bucket(let location):
            return S3RenditionStore(client: try Self.client(environment), location: location)
        }
    }

    package static func client(_ environment: [String: String]) throws(UsageError) -> S3Client {
        do {
            return S3Client(try S3Configuration(environment: environment))
        } catch {
            throw UsageError("Object storage is not configured: \(error)")
        }
    }
}
