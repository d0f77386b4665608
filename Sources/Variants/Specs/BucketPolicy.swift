import Foundation

/// What a bucket holds its uploads to: their largest size, the media types it takes and whether it refuses
/// programs. A job for an upload carries it; an on-demand render of an object already stored carries none,
/// since the object was let in.
public struct BucketPolicy: Sendable, Equatable, Codable {
    /// The bucket's name, which refusals quote.
    public let name: String
    /// The largest upload in bytes; `nil` for no limit of the bucket's own.
    public let fileSizeLimit: Int?
    /// The media types the bucket accepts, as declared; empty accepts every type.
    public let allowedMimeTypes: [MimePattern]
    /// Refuses programs by their bytes (`MediaType.isExecutable`) and by their names (`ExecutableName`),
    /// whatever their declared type.
    public let blockExecutables: Bool

    init(name: String, fileSizeLimit: Int?, allowedMimeTypes: [MimePattern], blockExecutables: Bool) {
        self.name = name
        self.fileSizeLimit = fileSizeLimit
        self.allowedMimeTypes = allowedMimeTypes
        self.blockExecutables = blockExecutables
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case name, fileSizeLimit, allowedMimeTypes, blockExecutables
    }

    /// Held to the declaration's rules, so a policy read from a decoder child's job line is as valid as one
    /// parsed from a declaration.
    public init(from decoder: any Decoder) throws {
        self = try DeclarationField.decoding(decoder) { (field) throws(VariantsError) in
            let policy = try field.object(knownKeys: CodingKeys.allCases.map(\.rawValue))
            return BucketPolicy(
                name: try policy.required("name", expected: BucketDeclaration.nameRule).bucketName(),
                fileSizeLimit: try policy["fileSizeLimit"]?.fileSizeLimit(),
                allowedMimeTypes: try policy.required("allowedMimeTypes", expected: "array").mimePatterns(),
                blockExecutables: try policy["blockExecutables"]?.bool() ?? false)
        }
    }

    /// Refuses what the bucket does not take: a program, by its type or its path, when it blocks executables;
    /// a type outside `allowedMimeTypes`.
    ///
    /// - Throws: `415 unsupported_media_type`, with reason `executable` for a program.
    func admit(_ type: MediaType, path: String) throws(VariantsError) {
        if blockExecutables {
            if type.isExecutable {
                throw VariantsError(
                    .unsupportedMediaType, reason: .executable,
                    "bucket '\(name)' does not take executables, and the object is \(type.mimeType)")
            }
            if let found = ExecutableName.executableExtension(of: path) {
                throw VariantsError(
                    .unsupportedMediaType, reason: .executable,
                    "bucket '\(name)' does not take executables, and the object's name ends in .\(found)")
            }
        }
        guard allows(contentType: type.mimeType) else {
            throw VariantsError(.unsupportedMediaType, "bucket '\(name)' does not take \(type.mimeType)")
        }
    }

    /// Whether an upload with this `Content-Type` may go into the bucket.
    ///
    /// Parameters (`; charset=…`) and case are ignored, as media types compare case-insensitively.
    public func allows(contentType: String) -> Bool {
        guard !allowedMimeTypes.isEmpty else { return true }
        let bare = contentType.prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces).lowercased()
        return allowedMimeTypes.contains { $0.matches(bare) }
    }
}
