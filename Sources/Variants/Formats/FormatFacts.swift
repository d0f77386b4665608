/// What variantd knows about one media type: the names that suggest it, the container its bytes are laid out
/// in, how its pixels are read, the format renditions in it are asked for by and what that encoder takes,
/// whether it keeps alpha and animation.
///
/// Every place that treats formats differently by these facts reads them from the one table, `MediaType.facts`:
/// a new media type does not compile without its row, and `FormatFactsTests` holds each row to what the code
/// does with the type. The rows are plain values (the sniffer reads them, and it builds without the C
/// libraries); the call into each encoder is `Renderer`'s.
struct FormatFacts: Sendable {
    /// How a decodable type's pixels are read.
    enum Decoder: Sendable, Equatable {
        /// By this named libvips loader (libjpeg-turbo directly for most JPEGs, see `OpenedPicture`).
        case vips(VipsLoader)
        /// By our libheif shim.
        case heif
        /// A video's poster frame, by FFmpeg through this demuxer (`VideoCodec` names the decoders).
        case video(VideoDemuxer)
    }

    /// How renditions are asked for in one type.
    struct Encoder: Sendable {
        /// The name a variant asks for it by (`"format": "webp"`).
        var format: OutputFormat
        /// The quality used when a variant declares none; nil where quality has no meaning (lossless PNG).
        var defaultQuality: Int?
        /// How `quality: "auto"` and score targets are searched for in it; nil where no search is made: PNG is
        /// lossless, and AVIF's encoder is too slow to run several times a rendition.
        var scoreSearch: ScoreSearch? = nil
        /// A variant's `progressive` reaches it: it can write a picture in several scans, coarse to fine.
        var progressive = false
        /// A variant's `effort` reaches it; the others are written at a fixed effort of `Renderer`'s.
        var effort = false
        /// A variant's `metadata: "copyright"` reaches it: it writes the kept EXIF and XMP blocks.
        var keepsRights = false
    }

    /// How a type's bytes are laid out, which decides how `ContainerCheck` walks them before any decoder does.
    enum Container: Sendable, Equatable {
        /// JPEG marker segments.
        case jpegSegments
        /// PNG chunks, each with a CRC; colour may be described by `gAMA` and `cHRM` rather than a profile.
        case pngChunks
        /// GIF blocks and sub-blocks.
        case gifBlocks
        /// A RIFF chunk list (WebP).
        case riffChunks
        /// ISO-BMFF boxes (HEIF, AVIF, MP4, QuickTime).
        case isoBoxes
        /// EBML elements (WebM, Matroska).
        case ebmlElements
        /// PDF objects and trailers, ending in `%%EOF`.
        case pdfObjects
    }

    /// The two figures a quality search in one format starts from, both read off the corpus photos
    /// (docs/BucketDeclaration.md has them).
    struct ScoreSearch: Sendable {
        /// The SSIMULACRA2 score `quality: "auto"` aims at: about the mean score the default quality reaches.
        var target: Int
        /// About how many points one quality step moves the score near the default quality. The search's
        /// second try is as many steps from its first as the first's distance from the target needs at this
        /// rate, which lands it near the answer instead of a fixed stride away.
        var pointsPerStep: Double
    }

    /// The file-name extensions (lower case) that suggest the type when the bytes cannot say; renditions in
    /// it are stored under the first.
    var extensions: [String] = []
    /// Other spellings of its media type that clients declare (`image/jpg`).
    var aliases: [String] = []
    /// How its bytes are laid out; nil where they are never checked (a type not decoded here).
    var container: Container?
    /// How its pixels are read; nil for a type never decoded here.
    var decoder: Decoder?
    /// How renditions are written in it; nil where none are.
    var encoder: Encoder?
    /// An alpha channel in its pictures is read, and a rendition written in it keeps one (others flatten it).
    var alpha = false
    /// Its animated pictures are read frame by frame, and a rendition written in it can play every frame.
    var animates = false
    /// Its files hold pages (a PDF, a multi-page TIFF): the first is decoded, and how many there are is
    /// reported as `pages` and held to the page limit rather than the frame limit.
    var pages = false
    /// Its pages are measured in points (PDF): the first page's size is reported in them as `pageSize`.
    var measuredInPoints = false
    /// Its bytes are a program: never a picture, and refused by a bucket that blocks executables.
    var executable = false
}
