/// What the pipeline refuses before decoding a pixel; every default lives here, with its reason.
public struct Limits: Sendable, Equatable, Codable {
    /// Largest object read at all, whatever the bucket allows.
    public var maxInputBytes: Int
    /// Largest picture, width × height, as its header declares it. The default is sharp's (0x3FFF²): it lets
    /// a real 200-megapixel phone photo (12240 × 16320) through and stops the 280-megapixel bombs.
    public var maxPixels: Int
    /// Largest progressive JPEG or interlaced PNG: their decoders hold the whole picture's coefficients or
    /// rows however small the output (libvips measured 3.7 GB for one large progressive JPEG). 30 megapixels
    /// is above any progressive photo a phone or camera writes.
    public var maxProgressivePixels: Int
    /// Most frames a header may declare (we decode the first, but the loader walks them all).
    public var maxFrames: Int
    /// Most pages a document (PDF, TIFF) may hold: its first is decoded, but the loader reads the page tree
    /// or the chain of directories whole. A long book fits.
    public var maxPages: Int
    /// Metadata blocks (EXIF, XMP, ICC, comments, PNG text) a file may carry in all: decoders read them whole
    /// into memory, and a camera writes well under 1 MB.
    public var maxMetadataBytes: Int
    /// Largest single allocation libheif may make: a 200-megapixel RGB decode needs about 600 MB.
    public var maxHEIFMemoryBlock: Int
    /// Most items in a HEIF `meta` box; a 200-megapixel grid holds about 800 tiles.
    public var maxHEIFItems: Int
    /// Threads libheif may use to decode grid tiles of one picture.
    public var decodingThreads: Int

    public init(
        maxInputBytes: Int = 256 << 20, maxPixels: Int = 268_402_689, maxProgressivePixels: Int = 30_000_000,
        maxFrames: Int = 1_000, maxMetadataBytes: Int = 8 << 20, maxHEIFMemoryBlock: Int = 1 << 30,
        maxHEIFItems: Int = 4_000, decodingThreads: Int = 2, maxPages: Int = 10_000
    ) {
        self.maxInputBytes = maxInputBytes
        self.maxPixels = maxPixels
        self.maxProgressivePixels = maxProgressivePixels
        self.maxFrames = maxFrames
        self.maxPages = maxPages
        self.maxMetadataBytes = maxMetadataBytes
        self.maxHEIFMemoryBlock = maxHEIFMemoryBlock
        self.maxHEIFItems = maxHEIFItems
        self.decodingThreads = decodingThreads
    }

    public static let `default` = Limits()

    /// Refuses a declared size over the pixel limit, or over the tighter one for progressive pictures.
    func checkPixels(width: Int, height: Int, progressive: Bool = false) throws(VariantsError) {
        guard width > 0, height > 0 else {
            throw .unreadable(.corrupt, "the header declares a \(width)×\(height) picture")
        }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= maxPixels else {
            throw .unreadable(
                .tooManyPixels,
                "the header declares \(width)×\(height) pixels, over the limit of \(maxPixels)")
        }
        guard !progressive || pixels <= maxProgressivePixels else {
            throw .unreadable(
                .tooManyPixels,
                "a progressive or interlaced \(width)×\(height) picture, over the limit of \(maxProgressivePixels) pixels"
            )
        }
    }

    /// Refuses a rendition the plan would make larger than the pixel limit (an enlarging `outside` or
    /// `cover` on an extreme aspect ratio).
    func checkRendition(_ name: String, width: Int, height: Int) throws(VariantsError) {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= maxPixels else {
            throw .unreadable(
                .tooManyPixels,
                "variant '\(name)' would be \(width)×\(height) pixels, over the limit of \(maxPixels)")
        }
    }

    func checkMetadata(_ bytes: Int) throws(VariantsError) {
        guard bytes <= maxMetadataBytes else {
            throw .unreadable(
                .tooMuchMetadata,
                "the file carries \(bytes) bytes of metadata, over the limit of \(maxMetadataBytes)")
        }
    }

    func checkPages(_ pages: Int) throws(VariantsError) {
        guard pages <= maxPages else {
            throw .unreadable(
                .tooManyPages, "the document holds \(pages) pages, over the limit of \(maxPages)")
        }
    }

    func checkFrames(_ frames: Int) throws(VariantsError) {
        guard frames <= maxFrames else {
            throw .unreadable(
                .tooManyFrames, "the header declares \(frames) frames, over the limit of \(maxFrames)")
        }
    }
}
