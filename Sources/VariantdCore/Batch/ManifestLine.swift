import Variants

/// One line of `OUT/manifest.jsonl`: the JSON the daemon answers with for the file — its completion
/// metadata or its error — with `declarationSha256` added, and for an error also the `path` and the
/// source's `checksumSha256`, so that every line says which file, which bytes and which declaration it is
/// about.
struct ManifestLine: Encodable {
    var outcome: Result<CompletionMetadata, VariantsError>
    /// Relative to the batch folder; a metadata line carries it already (the request's path).
    var path: String
    /// Nil only when the file could no longer be read, or is an object in storage too large to be read;
    /// such a line is never taken as done.
    var sourceChecksum: String?
    var declaration: String

    private enum ExtraKeys: String, CodingKey {
        case path, checksumSha256, declarationSha256
    }

    func encode(to encoder: any Encoder) throws {
        switch outcome {
        case .success(let metadata):
            try metadata.encode(to: encoder)
        case .failure(let error):
            try error.encode(to: encoder)
            var extra = encoder.container(keyedBy: ExtraKeys.self)
            try extra.encode(path, forKey: .path)
            try extra.encodeIfPresent(sourceChecksum, forKey: .checksumSha256)
        }
        var extra = encoder.container(keyedBy: ExtraKeys.self)
        try extra.encode(declaration, forKey: .declarationSha256)
    }

    /// The line's text, without its newline.
    func text() throws -> [UInt8] {
        try WireJSON.encode(self)
    }
}

/// What a resume reads back from a manifest line: the key fields and how the result counts.
struct ManifestRecord: Decodable, Equatable {
    var path: String
    /// The source's; absent from an error met before the source could be read.
    var checksumSha256: String?
    var declarationSha256: String
    /// The error code of an error line; nil for metadata.
    var error: String?

    /// Decodes one line; nil for a line that is not a complete record (an older format, a torn write).
    init?(line: some Sequence<UInt8>) {
        guard let record = try? WireJSON.decode(ManifestRecord.self, from: line) else { return nil }
        self = record
    }

    /// Nil for a line whose source was never read: nothing a resume could skip.
    var key: ManifestKey? {
        checksumSha256.map { ManifestKey(path: path, sourceChecksum: $0, declaration: declarationSha256) }
    }

    /// The category, or nil when the line must not count as done: an error that may pass on a later
    /// attempt (`internal_error`, `store_unavailable`), or a code this build does not know.
    var doneCategory: ResultCategory? {
        guard let error else { return .ok }
        guard let code = VariantsError.Code(rawValue: error), !code.isTransient else { return nil }
        return ResultCategory(code)
    }
}
