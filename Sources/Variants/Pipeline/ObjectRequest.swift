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

    /// The object as a client names it, each field checked against its rule: a bucket name
    /// (`BucketDeclaration.nameRule`), a path of 1…1024 bytes without control characters, a declared type of 1…255
    /// printable ASCII characters.
    ///
    /// - Throws: `400 invalid_request` naming the field.
    public init(checking bucket: String, path: String, declaredContentType: String? = nil)
        throws(VariantsError)
    {
        guard BucketDeclaration.isValidName(bucket) else {
            throw VariantsError(.invalidRequest, "bucket: expected \(BucketDeclaration.nameRule)")
        }
        guard (1...1024).contains(path.utf8.count), !path.unicodeScalars.contains(where: Self.isControl)
        else {
            throw VariantsError(.invalidRequest, "path: expected 1…1024 bytes without control characters")
        }
        if let type = declaredContentType {
            guard (1...255).contains(type.utf8.count),
                type.unicodeScalars.allSatisfy({ $0.isASCII && !Self.isControl($0) })
            else { throw VariantsError(.invalidRequest, "declaredContentType: expected a media type") }
        }
        self.init(bucket: bucket, path: path, declaredContentType: declaredContentType)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar.value == 0x7F
    }
}
