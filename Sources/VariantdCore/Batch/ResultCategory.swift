import Variants

/// How the summary counts one file's result.
enum ResultCategory: UInt8, Sendable, CaseIterable {
    /// Metadata (and renditions, for a picture the bucket takes).
    case ok
    /// `422 unreadable_picture`: a result about the file, not a failure of the run.
    case unreadable
    /// `415 unsupported_media_type`: a type we never decode or the bucket does not take.
    case unsupported
    /// Every other error (too large, invalid request, internal).
    case error

    init(_ outcome: Result<CompletionMetadata, VariantsError>) {
        switch outcome {
        case .success: self = .ok
        case .failure(let error): self.init(error.code)
        }
    }

    init(_ code: VariantsError.Code) {
        switch code {
        case .unreadablePicture: self = .unreadable
        case .unsupportedMediaType: self = .unsupported
        default: self = .error
        }
    }
}
