public import Variants

/// What the parent sends a decoder child for one object: this line of JSON, then `sourceSize` bytes of the
/// object, then the bytes of each `stored` rendition in order. The child opens no file: the parent reads
/// the object and the stored renditions, and writes what the child renders.
public struct PipelineJob: Sendable, Codable, Equatable {
    /// The order, with the checksum the parent computed while it had the bytes.
    public var order: RenditionOrder
    public var sourceSize: Int
    /// Renditions already stored for these bytes, for the child to check and reuse.
    public var stored: [PipelinePart]

    public init(order: RenditionOrder, sourceSize: Int, stored: [PipelinePart]) {
        self.order = order
        self.sourceSize = sourceSize
        self.stored = stored
    }
}

/// One file that follows a job or answer line on the pipe: its rendition key and its length in bytes.
public struct PipelinePart: Sendable, Codable, Equatable {
    public var key: String
    public var size: Int

    public init(key: String, size: Int) {
        self.key = key
        self.size = size
    }
}

/// What decoding one object came to: the metadata or the typed error, where the time went, and the
/// decoder child's memory. What `PipelinePool.fulfil` returns, and what a child answers for its job.
public struct PipelineAnswer: Sendable, Codable, Equatable {
    public var metadata: CompletionMetadata?
    public var error: VariantsError?
    public var timings: StageTimings
    /// The child's peak resident set so far, in KiB (nil when it died before answering).
    public var peakResidentKiB: Int?
    /// The renditions this answer made and the pool stored, so that a caller can send one without
    /// reading it back from the store. Never on the wire: the child's bytes follow its reply line.
    public var files: [RenditionFile] = []

    private enum CodingKeys: String, CodingKey {
        case metadata, error, timings, peakResidentKiB
    }

    public init(
        _ outcome: Result<CompletionMetadata, VariantsError>, timings: StageTimings,
        peakResidentKiB: Int? = nil
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
        return .failure(
            error ?? VariantsError(.internalError, "the decoder answered neither metadata nor error"))
    }
}

/// The line a decoder child writes for a job: its answer, and the new renditions to store, whose bytes
/// follow the line in order (all of them, or none when the job failed or did not keep renditions).
public struct PipelineReply: Sendable, Codable, Equatable {
    public var answer: PipelineAnswer
    public var written: [PipelinePart]

    public init(answer: PipelineAnswer, written: [PipelinePart]) {
        self.answer = answer
        self.written = written
    }
}
