public import Variants

/// What the parent sends a decoder child: one line of JSON per object.
public struct DecodeJob: Sendable, Codable, Equatable {
    /// Absolute path of the stored bytes, already confined to the store root by the parent.
    public var sourcePath: String
    public var request: ObjectRequest

    public init(sourcePath: String, request: ObjectRequest) {
        self.sourcePath = sourcePath
        self.request = request
    }
}

/// What a decoder child answers: the metadata or the typed error, and where the time went.
public struct DecodeAnswer: Sendable, Codable, Equatable {
    public var metadata: CompletionMetadata?
    public var error: VariantsError?
    public var timings: StageTimings

    public init(_ outcome: Result<CompletionMetadata, VariantsError>, timings: StageTimings) {
        switch outcome {
        case .success(let metadata):
            self.metadata = metadata
        case .failure(let error):
            self.error = error
        }
        self.timings = timings
    }

    public var outcome: Result<CompletionMetadata, VariantsError> {
        if let metadata { return .success(metadata) }
        return .failure(error ?? VariantsError(.internalError, "the decoder answered neither metadata nor error"))
    }
}
