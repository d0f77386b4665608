import Foundation

/// A bucket's declaration: which uploads it accepts (its `policy`) and which variants every accepted picture
/// gets.
///
/// Made only by parsing (`BucketDeclaration(parsing:)`) or taken as `BucketDeclaration.default`, so its
/// contents are valid.
///
/// ```swift
/// let bucket = try BucketDeclaration(parsing: declarationBytes)
/// guard bucket.policy.allows(contentType: "image/png") else { … }
/// for variant in bucket.variants { print(variant.name, variant.canonicalJSON) }
/// ```
public struct BucketDeclaration: Sendable, Equatable {
    /// 1…63 characters of `a-z 0-9 . _ -`, starting with a letter or digit, with no `..`.
    public let name: String
    /// Whether on-demand renditions of the bucket's pictures are served without a credential.
    public let isPublic: Bool
    /// The account the bucket belongs to, whose monthly transform allowance its on-demand transforms count
    /// against; the bucket's own name unless declared.
    public let account: String
    /// The largest upload in bytes; `nil` for no limit of the bucket's own.
    public let fileSizeLimit: Int?
    /// The media types the bucket accepts, as declared; empty accepts every type.
    public let allowedMimeTypes: [MimePattern]
    /// Whether programs are refused, by their bytes or their names, whatever their declared type.
    public let blockExecutables: Bool
    /// Sorted by name, so iteration, logs and metadata come out the same way every time.
    public let variants: [VariantSpec]
    /// Which on-demand transforms are served beside the declared variants.
    public let transforms: TransformScope
    /// The overlays its variants and transforms may name, sorted by name.
    public let watermarks: [Watermark]

    init(
        name: String, isPublic: Bool = false, account: String? = nil, fileSizeLimit: Int?,
        allowedMimeTypes: [MimePattern], blockExecutables: Bool = false, variants: [VariantSpec],
        transforms: TransformScope = .any,
        watermarks: [Watermark] = []
    ) {
        self.name = name
        self.isPublic = isPublic
        self.account = account ?? name
        self.fileSizeLimit = fileSizeLimit
        self.allowedMimeTypes = allowedMimeTypes
        self.blockExecutables = blockExecutables
        self.variants = variants.sorted { $0.name < $1.name }
        self.transforms = transforms
        self.watermarks = watermarks.sorted { $0.name < $1.name }
    }

    /// More variants than this is `429 too_many_variants`: each one is rendered inside the upload request.
    public static let maximumVariants = 50

    /// What a bucket name may be, in words: it also names a declaration file, so it can never reach outside
    /// a directory.
    public static let nameRule =
        "bucket name of 1…63 characters from a-z 0-9 . _ -, starting with a letter or digit, without .."

    /// Read byte by byte: every render request checks its bucket name.
    public static func isValidName(_ name: String) -> Bool {
        let bytes = name.utf8
        func isAlphanumeric(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
        guard (1...63).contains(bytes.count), let first = bytes.first, isAlphanumeric(first) else {
            return false
        }
        var previous: UInt8 = 0
        for byte in bytes {
            let dot = byte == UInt8(ascii: ".")
            guard isAlphanumeric(byte) || dot || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-"),
                !(dot && previous == UInt8(ascii: "."))
            else { return false }
            previous = byte
        }
        return true
    }

    /// The variant declared under `name`, if any.
    public func variant(named name: String) -> VariantSpec? {
        variants.first { $0.name == name }
    }

    /// What the bucket holds its uploads to.
    public var policy: BucketPolicy {
        BucketPolicy(
            name: name, fileSizeLimit: fileSizeLimit, allowedMimeTypes: allowedMimeTypes,
            blockExecutables: blockExecutables)
    }
}
