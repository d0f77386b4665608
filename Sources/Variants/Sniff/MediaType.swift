/// Every type variantd tells apart, spelled as its MIME type.
public enum MediaType: String, Sendable, Codable, CaseIterable {
    // Pictures we decode.
    case jpeg = "image/jpeg"
    case png = "image/png"
    case gif = "image/gif"
    case webp = "image/webp"
    case heic = "image/heic"
    case heif = "image/heif"
    case avif = "image/avif"
    case heifSequence = "image/heif-sequence"
    case avifSequence = "image/avif-sequence"
    // Pictures we never decode.
    case bmp = "image/bmp"
    case tiff = "image/tiff"
    case svg = "image/svg+xml"
    case jpegXL = "image/jxl"
    case jpeg2000 = "image/jp2"
    case icon = "image/x-icon"
    case photoshop = "image/vnd.adobe.photoshop"
    // What else a bucket sees every day.
    case pdf = "application/pdf"
    case zip = "application/zip"
    case mp4 = "video/mp4"
    case quickTime = "video/quicktime"
    case webm = "video/webm"
    case matroska = "video/x-matroska"
    case isoMedia = "application/mp4"
    case json = "application/json"
    case text = "text/plain"
    case csv = "text/csv"
    // Programs: reported, never decoded; a bucket that blocks executables refuses them.
    /// Every ELF file (executables, position-independent ones and shared libraries alike: a PIE program is an
    /// ELF shared object, so the object type cannot tell a program from a library).
    case elf = "application/x-executable"
    case portableExecutable = "application/vnd.microsoft.portable-executable"
    /// Thin and universal (fat) Mach-O files.
    case machO = "application/x-mach-binary"
    case wasm = "application/wasm"
    case javaClass = "application/java-vm"
    /// Not registered with IANA; the name file-type libraries give Dalvik executables.
    case dex = "application/vnd.android.dex"
    /// A `#!` script, whatever interpreter it names.
    case script = "text/x-shellscript"
    case octetStream = "application/octet-stream"

    public var mimeType: String { rawValue }

    /// Claims to be a picture (`image/*`), whether or not we decode it.
    public var isPicture: Bool { rawValue.hasPrefix("image/") }

    /// A type this service turns into pixels: pictures (HEIF-family sequences decode their still primary
    /// image) and videos (their poster frame).
    public var isDecodable: Bool { facts.decoder != nil }

    /// Text whose finer type only a name or a declaration can tell (a shell script without `#!`).
    var isText: Bool { self == .text || self == .csv || self == .json || self == .script }

    /// A program some machine or virtual machine runs, which a bucket may refuse (`blockExecutables`).
    public var isExecutable: Bool { facts.executable }

    /// The type a file name's extension suggests, when the bytes cannot say.
    public init?(fileExtension: String) {
        guard let type = Self.byExtension[fileExtension.lowercased()] else { return nil }
        self = type
    }

    /// The type a client declared (`Content-Type`), ignoring parameters and case.
    public init?(declared: String) {
        let essence = String(declared.prefix { $0 != ";" }.filter { $0 != " " && $0 != "\t" }).lowercased()
        guard let type = MediaType(rawValue: essence) ?? Self.byAlias[essence] else { return nil }
        self = type
    }
}
