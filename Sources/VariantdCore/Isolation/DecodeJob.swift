public import Variants

/// What the parent sends a decoder child: one line of JSON per object.
public struct DecodeJob: Sendable, Codable, Equatable {
    /// Absolute path of the stored bytes, already confined to the store root by the parent.
    public var sourcePath: String
    public var request: ObjectRequest
    /// The bucket's declaration text, already validated by the parent; nil renders no variant.
    public var bucketDeclaration: String?
    /// The rendition store's root; nil renders and checks variants without keeping them.
    public var storeRoot: String?

    public init(sourcePath: String, request: ObjectRequest, bucketDeclaration: String? = nil, storeRoot: String? = nil) {
        self.sourcePath = sourcePath
        self.request = request
        self.bucketDeclaration = bucketDeclaration
        self.storeRoot = storeRoot
    }
}

/// What a decoder child answers: the metadata or the typed error, and where the time went.
public struct DecodeAnswer: Sendable, Codable, Equatable {
    public var metadata: CompletionMetadata?
    public var error: VariantsError?
    public var timings: StageTimings
    /// The child's peak resident set so far, in KiB.
    public var peakResidentKiB: Int?

    public init(
        _ outcome: Result<CompletionMetadata, VariantsError>, timings: StageTimings, peakResidentKiB: Int? = nil
    ) {
        switch outcome {
        case .success(let metadata):
            self.metadata = metadata
        case .failure(let error):
            self.error = error
        }
        self.timings = timings
        self.peakResidentKiB = peakResidentKiB
    }

    public var outcome: Result<CompletionMetadata, VariantsError> {
        if let metadata { return .success(metadata) }
        return .failure(error ?? VariantsError(.internalError, "the decoder answered neither metadata nor error"))
    }
}
