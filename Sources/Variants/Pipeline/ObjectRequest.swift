/// One stored object to process: where it lives in the storage layer and what its uploader said it is.
public struct ObjectRequest: Sendable, Codable, Equatable {
    public var bucket: String
    /// The object's path inside the bucket; its extension is the last hint about the type.
    public var path: String
    /// The client's `Content-Type`, used only when the bytes cannot say.
    public var declaredContentType: String?

    public init(bucket: String, path: String, declaredContentType: String? = nil) {
        self.bucket = bucket
        self.path = path
        self.declaredContentType = declaredContentType
    }
}
