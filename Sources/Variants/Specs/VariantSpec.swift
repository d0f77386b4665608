/// One named rendition a bucket declares, already validated: every value here is one the renderer accepts.
///
/// Only `BucketDeclaration(parsing:)` makes these, so a `VariantSpec` in hand never needs checking again.
/// Fields hold what was declared with defaults filled in; `RenderPlan` decides what they mean for a source.
public struct VariantSpec: Sendable, Equatable, Hashable {
    /// 1…64 characters of `A-Z a-z 0-9 _ -`; safe in a URL query and a file name.
    public let name: String
    /// The box's width in 1…4096 (larger declarations clamp); `nil` derives it from the aspect ratio.
    public let width: Int?
    /// The box's height in 1…4096 (larger declarations clamp); `nil` derives it from the aspect ratio.
    public let height: Int?
    /// Defaults to `cover` when both sides are declared and `inside` otherwise, as in sharp.
    public let fit: Fit
    /// Used by `cover` only.
    public let position: Position
    public let format: OutputFormat
    /// As declared, in 1…100; `nil` means the output format's `defaultQuality`, or a search for
    /// `qualityTarget` when there is one.
    public internal(set) var quality: Int?
    /// `quality: "auto"` or `{"ssimulacra2": N}`: the quality is searched for per rendition; never set
    /// together with `quality`.
    public internal(set) var qualityTarget: QualityTarget?
    /// Gaussian blur sigma in 0…20; 0 is none.
    public let blur: Double
    /// Sharpening sigma in 0…10; 0 is none.
    public let sharpen: Double
    public let rotation: Rotation
    /// The letterbox colour of `contain` and what alpha is flattened onto for JPEG.
    public let background: Colour
    /// Never scale a picture up; smaller sources keep their size.
    public let withoutEnlargement: Bool
    /// A WebP rendition of an animated GIF or WebP keeps the animation; `false` takes the first frame.
    public let animated: Bool
    /// A JPEG rendition in several scans, coarse to fine, so a large picture shows early on a slow link (and,
    /// with jpegli, in fewer bytes); `false` writes one baseline scan. Undeclared (`nil`) is progressive.
    /// Other formats ignore it.
    public let progressive: Bool?
    /// How hard libwebp works on a WebP rendition, its `method` in `efforts`: more effort, fewer bytes for the
    /// same look, more time. Undeclared (`nil`) is `defaultEffort`. Other formats ignore it.
    public let effort: Int?
    /// A mirror after `rotation`; nil is none.
    public let flip: Flip?
    /// The point `cover` keeps nearest the centre of its crop, in place of `position`; nil uses `position`.
    public let focus: FocalPoint?
    /// Removes a border of the top-left pixel's colour, to within this threshold (0…255 a channel), before
    /// anything else; nil keeps the picture whole.
    public let trim: Int?
    /// What of the source's metadata the rendition keeps; `none` writes none.
    public let metadata: KeptMetadata
    /// The bucket's overlay placed on the rendition, if any.
    public let watermark: Watermark?

    init(
        name: String, width: Int?, height: Int?, fit: Fit? = nil, position: Position = .centre,
        format: OutputFormat = .jpeg, quality: Int? = nil, qualityTarget: QualityTarget? = nil,
        blur: Double = 0, sharpen: Double = 0,
        rotation: Rotation = .d0, background: Colour = .white, withoutEnlargement: Bool = true,
        animated: Bool = true, progressive: Bool? = nil, effort: Int? = nil, flip: Flip? = nil,
        focus: FocalPoint? = nil, trim: Int? = nil, metadata: KeptMetadata = .none,
        watermark: Watermark? = nil
    ) {
        precondition(width != nil || height != nil, "a variant needs a width or a height")
        precondition([width, height].compactMap(\.self).allSatisfy { (1...Self.maximumSide).contains($0) })
        precondition(quality == nil || qualityTarget == nil, "a quality is fixed or searched for, not both")
        precondition(effort.map(Self.efforts.contains) ?? true, "an effort in 0…6")
        self.name = name
        self.width = width
        self.height = height
        self.fit = fit ?? (width != nil && height != nil ? .cover : .inside)
        self.position = position
        self.format = format
        self.quality = quality
        self.qualityTarget = qualityTarget
        self.blur = blur
        self.sharpen = sharpen
        self.rotation = rotation
        self.background = background
        self.withoutEnlargement = withoutEnlargement
        self.animated = animated
        self.progressive = progressive
        self.effort = effort
        self.flip = flip
        self.focus = focus
        self.trim = trim
        self.metadata = metadata
        self.watermark = watermark
    }

    /// Whether a JPEG rendition is progressive: unless declared `false`.
    var writesProgressive: Bool { progressive ?? true }

    /// The effort a WebP rendition is encoded with: as declared, else `defaultEffort`.
    var webpEffort: Int { effort ?? Self.defaultEffort }

    /// libwebp's own default, past which bytes fall little for the time: 6 writes about 5 % fewer bytes at
    /// nearly the same look in twice the encode time (docs/BucketDeclaration.md).
    static let defaultEffort = 4

    /// The largest box side a declaration can ask for; anything larger clamps to it.
    public static let maximumSide = 4096

    // The bounds of the settings' rules, which `DeclarationField+Settings` applies for every reader.

    static let nameRule = "variant name of 1…64 characters from A-Z a-z 0-9 _ -"
    static let qualities = 1...100
    static let blurs = 0...20
    static let sharpens = 0...10
    static let efforts = 0...6
    static let pixelRatios = 1...4
    static let trimThresholds = 0...255

    static func isValidName(_ name: String) -> Bool {
        (1...64).contains(name.count) && name.unicodeScalars.allSatisfy(nameScalars.contains)
    }

    private static let nameScalars = Set(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-".unicodeScalars)
}
