import Variants

/// A `POST /v1/jobs` body, validated once at the edge: every field is in range, the source is a stored
/// object, and an inline bucket declaration has been parsed by the declaration parser.
///
/// `{ "id", "bucket", "path", "source", "declaredContentType"?, "bucketPolicy"? }`; unknown keys and keys
/// given twice are refused, so a misspelt optional field is not silently ignored.
struct JobRequest: Sendable {
    /// The caller's job id, echoed in the log line: 1…128 of `A-Z a-z 0-9 . _ : -`.
    let id: String
    let object: ObjectRequest
    /// The stored object's key in the object store (what a queued job records).
    let source: String
    /// The bucket's declaration given inline, parsed; nil looks the bucket up by name.
    let inlineBucket: BucketSpec?

    init(body: [UInt8], objects: any ObjectStore) throws(VariantsError) {
        let fields: Fields
        do {
            fields = try WireJSON.decode(Fields.self, from: body)
        } catch let error as VariantsError {
            throw error
        } catch {
            throw VariantsError(.invalidRequest, "the job is not valid JSON of the expected shape: \(error)")
        }
        guard (1...128).contains(fields.id.count), fields.id.allSatisfy(Self.idCharacters.contains) else {
            throw VariantsError(.invalidRequest, "id: expected 1…128 characters of A-Z a-z 0-9 . _ : -")
        }
        guard BucketSpec.isValidName(fields.bucket) else {
            throw VariantsError(.invalidRequest, "bucket: expected \(BucketSpec.nameRule)")
        }
        guard (1...1024).contains(fields.path.utf8.count),
            !fields.path.unicodeScalars.contains(where: Self.isControl)
        else {
            throw VariantsError(.invalidRequest, "path: expected 1…1024 bytes without control characters")
        }
        if let type = fields.declaredContentType {
            guard (1...255).contains(type.utf8.count),
                type.unicodeScalars.allSatisfy({ $0.isASCII && !Self.isControl($0) })
            else { throw VariantsError(.invalidRequest, "declaredContentType: expected a media type") }
        }
        id = fields.id
        object = ObjectRequest(
            bucket: fields.bucket, path: fields.path, declaredContentType: fields.declaredContentType)
        try objects.check(fields.source)
        source = fields.source
        inlineBucket = try BucketSpec.inline(member: "bucketPolicy", of: body)
        if let inlineBucket, inlineBucket.name != fields.bucket {
            throw VariantsError(
                .invalidRequest, "bucketPolicy: its name '\(inlineBucket.name)' is not the job's bucket")
        }
    }

    private static let idCharacters = Set(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._:-")

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar.value == 0x7F
    }

    /// The body's scalar fields as sent, before validation; `bucketPolicy` is read by the declaration parser.
    private struct Fields: Decodable {
        var id: String
        var bucket: String
        var path: String
        var source: String
        var declaredContentType: String?

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case id, bucket, path, source, declaredContentType, bucketPolicy
        }

        init(from decoder: any Decoder) throws {
            try decoder.refuseUnknownKeys(CodingKeys.self, in: "job")
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
            bucket = try container.decode(String.self, forKey: .bucket)
            path = try container.decode(String.self, forKey: .path)
            source = try container.decode(String.self, forKey: .source)
            declaredContentType = try container.decodeIfPresent(String.self, forKey: .declaredContentType)
        }
    }
}
