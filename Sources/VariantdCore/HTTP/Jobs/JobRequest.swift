import Variants

/// A `POST /v1/jobs` request, validated once at the edge: every field is in range, the source is a stored
/// object or the request's own body, and an inline bucket declaration has been parsed by the declaration
/// parser.
///
/// Two forms, told apart by `Content-Type`:
/// - `application/json` (or none): `{ "id", "bucket", "path", "source", "declaredContentType"?,
///   "bucketPolicy"?, "maxBytes"?, "allowedTypes"? }`; unknown keys and keys given twice are refused, so a
///   misspelt optional field is not silently ignored.
/// - `application/octet-stream`: the object's bytes as the body, for a storage server that shares no disk
///   with us, and `id`, `bucket`, `path`, `declaredContentType`?, `maxBytes`?, `allowedTypes`? (comma
///   separated) as query parameters; others are refused.
struct JobRequest: Sendable {
    /// The caller's job id, echoed in the log line: 1…128 of `A-Z a-z 0-9 . _ : -`.
    let id: String
    let object: ObjectRequest
    let source: Source
    /// The bucket's declaration given inline, parsed; nil looks the bucket up by name.
    let inlineBucket: BucketDeclaration?
    /// Limits this upload is held to below its bucket's.
    let ceilings: JobCeilings

    /// Where the object's bytes are.
    enum Source: Sendable {
        /// The stored object's key in the object store (what a queued job records).
        case stored(String)
        /// The request's body.
        case uploaded(RequestBody)

        /// The stored object's key; nil for an upload.
        var key: String? {
            guard case .stored(let key) = self else { return nil }
            return key
        }
    }

    /// Which form a request is, from its `Content-Type`.
    enum Form: Sendable {
        case json
        case upload

        static let uploadType = "application/octet-stream"

        /// - Throws: `415 unsupported_media_type` for any other type.
        init(_ request: HTTPRequest) throws(VariantsError) {
            switch request.mediaType {
            case nil, "application/json": self = .json
            case Self.uploadType: self = .upload
            case let other?:
                throw VariantsError(
                    .unsupportedMediaType,
                    "a job is application/json, or application/octet-stream with the object's bytes; got \(other)"
                )
            }
        }
    }

    /// The query parameters of an upload.
    private static let uploadParameters: Set = [
        "id", "bucket", "path", "declaredContentType", "maxBytes", "allowedTypes",
    ]

    /// An upload: the fields from the query, the bytes from the body.
    init(query: [String: String], body: RequestBody) throws(VariantsError) {
        if let unknown = query.keys.sorted().first(where: { !Self.uploadParameters.contains($0) }) {
            throw VariantsError(
                .invalidRequest,
                "unknown query parameter '\(unknown)': an upload takes id, bucket, path, declaredContentType, "
                    + "maxBytes and allowedTypes"
            )
        }
        for name in ["id", "bucket", "path"] where query[name] == nil {
            throw VariantsError(.invalidRequest, "\(name): missing from the query")
        }
        id = query["id"] ?? ""
        object = try Self.object(
            id: id, bucket: query["bucket"] ?? "", path: query["path"] ?? "",
            declaredContentType: query["declaredContentType"])
        source = .uploaded(body)
        inlineBucket = nil
        var maxBytes: Int?
        if let text = query["maxBytes"] {
            guard let value = Int(text) else {
                throw VariantsError(.invalidRequest, "maxBytes: expected a whole number, got \"\(text)\"")
            }
            maxBytes = value
        }
        ceilings = try JobCeilings(
            maxBytes: maxBytes,
            allowedTypes: query["allowedTypes"].map { $0.split(separator: ",").map(String.init) })
    }

    /// A JSON job naming a stored object.
    init(body: [UInt8], objects: any ObjectStore) throws(VariantsError) {
        let fields = try WireJSON.request(Fields.self, from: body, subject: "the job")
        id = fields.id
        object = try Self.object(
            id: fields.id, bucket: fields.bucket, path: fields.path,
            declaredContentType: fields.declaredContentType)
        try objects.check(fields.source)
        source = .stored(fields.source)
        ceilings = try JobCeilings(maxBytes: fields.maxBytes, allowedTypes: fields.allowedTypes)
        inlineBucket = try BucketDeclaration.inline(member: "bucketPolicy", of: body)
        if let inlineBucket, inlineBucket.name != fields.bucket {
            throw VariantsError(
                .invalidRequest, "bucketPolicy: its name '\(inlineBucket.name)' is not the job's bucket")
        }
    }

    /// The object a job is about, each field checked against its rule.
    private static func object(id: String, bucket: String, path: String, declaredContentType: String?)
        throws(VariantsError) -> ObjectRequest
    {
        guard (1...128).contains(id.count), id.allSatisfy(Self.idCharacters.contains) else {
            throw VariantsError(.invalidRequest, "id: expected 1…128 characters of A-Z a-z 0-9 . _ : -")
        }
        return try ObjectRequest(checking: bucket, path: path, declaredContentType: declaredContentType)
    }

    private static let idCharacters = Set(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._:-")

    /// The body's scalar fields as sent, before validation; `bucketPolicy` is read by the declaration parser.
    private struct Fields: Decodable {
        var id: String
        var bucket: String
        var path: String
        var source: String
        var declaredContentType: String?
        var maxBytes: Int?
        var allowedTypes: [String]?

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case id, bucket, path, source, declaredContentType, bucketPolicy, maxBytes, allowedTypes
        }

        init(from decoder: any Decoder) throws {
            try decoder.refuseUnknownKeys(CodingKeys.self, in: "job")
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
            bucket = try container.decode(String.self, forKey: .bucket)
            path = try container.decode(String.self, forKey: .path)
            source = try container.decode(String.self, forKey: .source)
            declaredContentType = try container.decodeIfPresent(String.self, forKey: .declaredContentType)
            maxBytes = try container.decodeIfPresent(Int.self, forKey: .maxBytes)
            allowedTypes = try container.decodeIfPresent([String].self, forKey: .allowedTypes)
        }
    }
}
