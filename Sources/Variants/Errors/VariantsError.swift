/// The one error a caller of variantd ever sees: a stable code, the HTTP status it maps to, and a sentence.
///
/// It is a value rather than an enum with payloads so that it crosses the process boundary to the decoder
/// child, the job queue and the wire unchanged (`{"statusCode", "error", "reason"?, "message"}`).
public struct VariantsError: Error, Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    /// Stable snake_case codes, used on the wire and in logs; a renamed code still reads under its old name.
    public enum Code: String, Sendable, Codable, CaseIterable {
        case unreadablePicture = "unreadable_picture"
        case unsupportedMediaType = "unsupported_media_type"
        case payloadTooLarge = "payload_too_large"
        case invalidTransform = "invalid_transform"
        case tooManyVariants = "too_many_variants"
        case invalidRequest = "invalid_request"
        case notFound = "not_found"
        /// An on-demand transform of a bucket that serves only its declared variants (`?variant=NAME`).
        case transformsDeclaredOnly = "transforms_declared_only"
        /// An on-demand transform of a width the bucket does not declare among its `widths`.
        case widthNotDeclared = "width_not_declared"
        /// The object or rendition store cannot be reached now: nothing is wrong with the input; retry later.
        case storeUnavailable = "store_unavailable"
        case internalError = "internal_error"
        /// The rendition store has no room (a full disk, a spent quota): nothing is wrong with the input, and
        /// the same request succeeds once space is back.
        case insufficientStorage = "insufficient_storage"
        /// A variant or a transform names a watermark its bucket does not declare.
        case unknownWatermark = "unknown_watermark"

        /// The HTTP status the daemon answers with.
        public var statusCode: Int {
            switch self {
            case .unreadablePicture: 422
            case .unsupportedMediaType: 415
            case .payloadTooLarge: 413
            case .invalidTransform, .invalidRequest, .unknownWatermark: 400
            case .tooManyVariants: 429
            case .notFound: 404
            case .transformsDeclaredOnly, .widthNotDeclared: 403
            case .storeUnavailable: 503
            case .internalError: 500
            case .insufficientStorage: 507
            }
        }

        /// Reads `transform_busy`, the daemon's answer to a store outage, as `store_unavailable`: job results
        /// stored by releases without a code of their own for an outage carry it.
        public init(from decoder: any Decoder) throws {
            let name = try decoder.singleValueContainer().decode(String.self)
            guard let code = Code(rawValue: name == "transform_busy" ? Code.storeUnavailable.rawValue : name)
            else {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(
                        codingPath: decoder.codingPath, debugDescription: "unknown error code '\(name)'"))
            }
            self = code
        }

        /// Whether the same input can succeed on a later attempt (the queue retries only these).
        public var isTransient: Bool {
            switch self {
            case .internalError, .storeUnavailable, .insufficientStorage: true
            default: false
            }
        }

        /// Whether the fault is the host's store rather than the job's (a store away, read-only, failing or
        /// full): a queue waits it out without spending the job's attempts, so an outage of any length
        /// discards no upload.
        public var isStoreOutage: Bool {
            self == .storeUnavailable || self == .insufficientStorage
        }
    }

    /// Why a picture is unreadable, decided by which step failed, never by a C library's message text; and, of
    /// the types a bucket refuses, the one refused for what it is rather than for its name on a list.
    public enum Reason: String, Sendable, Codable, CaseIterable {
        /// The container ends before the data it declares (checked on the bytes, before decoding).
        case truncated
        /// The decoder rejected the data.
        case corrupt
        /// The bytes are empty.
        case empty
        /// The header declares more pixels or a longer side than the limits allow.
        case tooManyPixels = "too_many_pixels"
        /// The header declares more frames than the limits allow.
        case tooManyFrames = "too_many_frames"
        /// A document (PDF, TIFF) holds more pages than the limits allow.
        case tooManyPages = "too_many_pages"
        /// A PDF encrypted with a user password: it cannot be opened without one.
        case encrypted
        /// EXIF, XMP, ICC, comment and text blocks together are larger than the limits allow.
        case tooMuchMetadata = "too_much_metadata"
        /// A sub-format we do not decode (12-bit or lossless JPEG, HEIF coded with AVC, JPEG 2000, …).
        case unsupportedFeature = "unsupported_feature"
        /// The name or declared type says picture, the bytes are something else.
        case notAPicture = "not_a_picture"
        /// The decoder process died (a signal or an abort inside a C library).
        case decoderCrash = "decoder_crash"
        /// The decoder process overran its deadline and was killed.
        case decoderTimeout = "decoder_timeout"
        /// The file killed decoders before and is refused on sight.
        case quarantined
        /// A program, by its bytes or its name, in a bucket that blocks executables (`415`).
        case executable
    }

    public var code: Code
    public var reason: Reason?
    public var message: String

    public init(_ code: Code, reason: Reason? = nil, _ message: String) {
        self.code = code
        self.reason = reason
        self.message = message
    }

    public var statusCode: Int { code.statusCode }

    public var description: String {
        "\(code.statusCode) \(code.rawValue)\(reason.map { " (\($0.rawValue))" } ?? ""): \(message)"
    }

    // MARK: - Wire form

    private enum CodingKeys: String, CodingKey {
        case statusCode, error, reason, message
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        code = try container.decode(Code.self, forKey: .error)
        reason = try container.decodeIfPresent(Reason.self, forKey: .reason)
        message = try container.decode(String.self, forKey: .message)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(code.statusCode, forKey: .statusCode)
        try container.encode(code, forKey: .error)
        try container.encodeIfPresent(reason, forKey: .reason)
        try container.encode(message, forKey: .message)
    }
}

// MARK: - Constructors for the common cases

extension VariantsError {
    /// A picture type we accept whose bytes cannot be made into pixels.
    public static func unreadable(_ reason: Reason, _ message: String) -> VariantsError {
        VariantsError(.unreadablePicture, reason: reason, message)
    }

    /// A bucket declaration problem, located by its field path (`variants.thumb.quality`).
    public static func invalidTransform(path: String, expected: String, got actual: String) -> VariantsError {
        VariantsError(.invalidTransform, "\(path): expected \(expected), got \(actual)")
    }
}
