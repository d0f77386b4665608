/// Limits a job may set below its bucket's policy for one upload: a smaller size, fewer media types. They
/// narrow and never widen, so a storage server can hold one upload to its URL's ceiling without a bucket
/// of its own.
public struct JobCeilings: Sendable, Equatable {
    /// The most bytes the object may have.
    public var maxBytes: Int?
    /// The media types the object may be; nil leaves the bucket's.
    public var allowedTypes: [MimePattern]?

    public init(maxBytes: Int? = nil, allowedTypes: [MimePattern]? = nil) {
        self.maxBytes = maxBytes
        self.allowedTypes = allowedTypes
    }

    public static let none = JobCeilings()

    /// Reads `maxBytes` and the `allowedTypes` patterns as a job states them.
    ///
    /// - Throws: `400 invalid_request` naming the field.
    public init(maxBytes: Int?, allowedTypes: [String]?) throws(VariantsError) {
        if let maxBytes, maxBytes < 1 {
            throw VariantsError(
                .invalidRequest, "maxBytes: expected a whole number of at least 1, got \(maxBytes)")
        }
        var patterns: [MimePattern]?
        if let allowedTypes {
            patterns = []
            for (index, text) in allowedTypes.enumerated() {
                guard let pattern = MimePattern(declared: text) else {
                    throw VariantsError(
                        .invalidRequest,
                        "allowedTypes[\(index)]: expected \(MimePattern.rule), got \"\(text)\"")
                }
                patterns?.append(pattern)
            }
        }
        self.init(maxBytes: maxBytes, allowedTypes: patterns)
    }
}

extension BucketPolicy {
    /// This policy held to a job's ceilings.
    ///
    /// - Throws: `400 invalid_request` when a ceiling is wider than the bucket's: more bytes than its
    ///   `fileSizeLimit`, or a type none of its `allowedMimeTypes` covers. It is refused, not capped, so the
    ///   caller learns that its URL and its bucket disagree.
    public func narrowed(by ceilings: JobCeilings) throws(VariantsError) -> BucketPolicy {
        if let maxBytes = ceilings.maxBytes, let limit = fileSizeLimit, maxBytes > limit {
            throw VariantsError(
                .invalidRequest, "maxBytes: \(maxBytes) is over bucket '\(name)''s fileSizeLimit of \(limit)")
        }
        if let types = ceilings.allowedTypes, !allowedMimeTypes.isEmpty,
            let wider = types.first(where: { type in !allowedMimeTypes.contains { $0.covers(type) } })
        {
            throw VariantsError(
                .invalidRequest, "allowedTypes: \(wider) is not among bucket '\(name)''s allowedMimeTypes")
        }
        return BucketPolicy(
            name: name, fileSizeLimit: ceilings.maxBytes ?? fileSizeLimit,
            allowedMimeTypes: ceilings.allowedTypes ?? allowedMimeTypes, blockExecutables: blockExecutables)
    }
}

extension MimePattern {
    /// Whether every type `other` matches, this matches too.
    func covers(_ other: MimePattern) -> Bool {
        switch (self, other) {
        case (.any, _): true
        case (.anySubtype(let type), .anySubtype(let otherType)): type == otherType
        case (.anySubtype, .exact(let exact)), (.exact(_), .exact(let exact)): matches(exact)
        case (_, .any), (.exact, .anySubtype): false
        }
    }
}
