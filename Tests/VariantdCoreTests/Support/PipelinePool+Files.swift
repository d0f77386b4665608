import Foundation
import Variants

@testable import VariantdCore

extension ObjectFolder {
    /// The whole file system as an object store, so tests name sources by absolute path.
    static let wholeFileSystem = try! ObjectFolder("/")
}

extension PipelinePool {
    /// A pool that reads sources from the whole file system.
    static func overFiles(_ configuration: Configuration, renditions: (any RenditionStore)? = nil)
        -> PipelinePool
    {
        PipelinePool(configuration, objects: ObjectFolder.wholeFileSystem, renditions: renditions)
    }

    /// Fulfils the order for `bucket`'s variants of the file at an absolute path, named after its last
    /// component.
    func fulfil(file path: String, bucket: BucketDeclaration? = nil, bucketName: String = "b") async
        -> PipelineAnswer
    {
        let request = ObjectRequest(
            bucket: bucket?.name ?? bucketName, path: (path as NSString).lastPathComponent)
        return await fulfil(RenditionOrder(request, bucket: bucket), from: .stored(String(path.dropFirst())))
    }
}
