/// The geometry and format decisions for rendering one variant from one source, made without touching pixels.
///
/// The backend executes it in order: cut out `trim`, rotate by `rotation`, resize to
/// `resizeWidth`×`resizeHeight`, mirror when `mirrored`, apply `framing`, place the watermark at `overlay`,
/// flatten onto `flattenOnto` if set,
/// then encode as `format` at `quality` (`progressive` JPEG). Fits follow sharp's documented semantics,
/// including its centring (crops round the offset up, letterboxes round it down). With `withoutEnlargement`,
/// nothing is scaled above 1: `cover` then crops min(box, resized) on each axis and `contain` still
/// letterboxes into the full box, as sharp's embed does.
public struct RenderPlan: Sendable, Equatable {
    /// What turns the resized image into the output.
    public enum Framing: Sendable, Equatable {
        /// The resized image is the output.
        case none
        /// Keep this rectangle of the resized image (`cover` at a compass position).
        case crop(x: Int, y: Int, width: Int, height: Int)
        /// Keep a `width`×`height` rectangle of the resized image wherever `interest` finds the subject.
        case smartCrop(width: Int, height: Int, interest: Interest)
        /// Place the resized image at (`x`, `y`) on a `width`×`height` canvas of `background` (`contain`).
        case embed(width: Int, height: Int, x: Int, y: Int, background: Colour)
    }

    /// A rectangle of the decode, in its pixels.
    public struct Region: Sendable, Equatable {
        public var x: Int
        public var y: Int
        public var width: Int
        public var height: Int
    }

    /// How a smart crop chooses its rectangle; the raw values are libvips' `VipsInteresting` nicknames.
    public enum Interest: String, Sendable, Equatable, Hashable {
        case entropy
        case attention
    }

    /// The part of the source that is rendered, in the decode's pixels (the whole picture's, for a trim), once
    /// `VariantSpec.trim` found its border; nil renders it whole.
    public let trim: Region?
    /// The spec's trim threshold: a plan made before its border is found needs the decode at full size.
    public let trimThreshold: Int?
    /// Applied to the displayed (EXIF-oriented) source before resizing; the box applies to the rotated image.
    /// With a `flip`, the quarter turn of the orientation they make together (`Rotation.followed(by:)`).
    public let rotation: Rotation
    /// Mirrored left to right after the resize, before `framing`.
    public let mirrored: Bool
    /// The rotated source is scaled to exactly this size (the aspect ratio changes only for `fill`).
    ///
    /// A backend that resizes before rotating (cheaper) resizes to this size with the sides exchanged
    /// whenever `rotation.swapsSides`.
    public let resizeWidth: Int
    public let resizeHeight: Int
    public let framing: Framing
    public let outputWidth: Int
    public let outputHeight: Int
    /// Never `.original`: that is resolved here from the source (see `init`).
    public let format: OutputFormat
    /// The media type `format` writes.
    public let writtenType: MediaType
    /// The encoder's quality, declared or the format's default; `nil` where the format takes none (PNG). With
    /// a `scoreTarget` it is only what an animation is written at, since the search runs on still renditions.
    public let quality: Int?
    /// The SSIMULACRA2 score the encoder's quality is searched for (`quality: "auto"` or a target), in the
    /// resolved format; `nil` for a fixed quality and where the format has no search.
    public let scoreTarget: Int?
    /// Only ever true where the encoder writes scans (`FormatFacts.Encoder.progressive`: JPEG).
    public let progressive: Bool
    /// libwebp's effort, 0…6; read for a WebP output only.
    public let effort: Int
    /// The rendition carries the source's artist, copyright and rights statement (`metadata: "copyright"`,
    /// where the encoder writes them: `FormatFacts.Encoder.keepsRights`).
    public let keepsRights: Bool
    /// Where the variant's watermark is placed on the output; nil without one.
    public let overlay: Overlay?
    /// The colour alpha is flattened onto because the output format cannot keep it; `nil` to keep alpha.
    public let flattenOnto: Colour?
    /// Resized size over rotated source size, the larger of the two axes: the decoder may shrink on load
    /// by up to the largest `scale` any variant of the bucket needs without losing detail any variant uses.
    public let scale: Double

    /// Plans one variant for a source of the given displayed size.
    ///
    /// `original` resolves to the source's format when it is JPEG, PNG, WebP or AVIF; other sources (HEIC,
    /// GIF: pass `nil`) become PNG when they have alpha and JPEG when they do not.
    ///
    /// Every size in the plan is at least 1 for any source size. Sizes grow without bound only when enlarging
    /// is allowed: `outside` on a 1×65535 source at width 4096 plans a 4096×268431360 output, which the
    /// caller's pixel limit must refuse.
    ///
    /// - Parameters:
    ///   - sourceWidth: The width after EXIF orientation, at least 1.
    ///   - sourceHeight: The height after EXIF orientation, at least 1.
    ///   - trim: What is left of the source once its border is removed (`VariantSpec.trim`), inside it; the
    ///     source is then the whole decode.
    public init(
        sourceWidth: Int, sourceHeight: Int, spec: VariantSpec, sourceHasAlpha: Bool,
        sourceFormat: OutputFormat?, trim: Region? = nil
    ) {
        precondition(sourceWidth > 0 && sourceHeight > 0, "a decoded source has at least one pixel")
        precondition(
            trim.map { $0.x >= 0 && $0.y >= 0 && $0.width > 0 && $0.height > 0 } ?? true,
            "a trimmed picture keeps a pixel")
        let orientation = spec.rotation.followed(by: spec.flip)
        let kept = trim ?? Region(x: 0, y: 0, width: sourceWidth, height: sourceHeight)
        // The focal point names a point of the whole source; it follows the picture through the trim and turns.
        let focus = spec.focus.map { point in
            FocalPoint(
                x: min(1, max(0, (point.x * Double(sourceWidth) - Double(kept.x)) / Double(kept.width))),
                y: min(1, max(0, (point.y * Double(sourceHeight) - Double(kept.y)) / Double(kept.height)))
            ).following(orientation.rotation, mirrored: orientation.mirrored)
        }
        let swapped = orientation.rotation.swapsSides
        let width = swapped ? kept.height : kept.width
        let height = swapped ? kept.width : kept.height
        let resized = Self.resize(width: width, height: height, spec: spec)
        let framing = Self.framing(
            resizedWidth: resized.width, resizedHeight: resized.height, spec: spec, focus: focus)
        let output: (width: Int, height: Int) =
            switch framing {
            case .none: resized
            case .crop(_, _, let width, let height), .smartCrop(let width, let height, _),
                .embed(let width, let height, _, _, _):
                (width, height)
            }
        let format = Self.format(of: spec, sourceFormat: sourceFormat, sourceHasAlpha: sourceHasAlpha)
        guard let writtenType = format.writtenType else {
            preconditionFailure("`original` is resolved above")
        }
        precondition([resized, output].allSatisfy { $0.width > 0 && $0.height > 0 })

        var alphaToFlatten = sourceHasAlpha
        if case .embed(_, _, _, _, let background) = framing, background.alpha < 255 { alphaToFlatten = true }

        self.trim = trim
        trimThreshold = spec.trim
        rotation = orientation.rotation
        mirrored = orientation.mirrored
        resizeWidth = resized.width
        resizeHeight = resized.height
        self.framing = framing
        outputWidth = output.width
        outputHeight = output.height
        self.format = format
        self.writtenType = writtenType
        quality = format.defaultQuality.map { spec.quality ?? $0 }
        scoreTarget = spec.qualityTarget?.score(in: format)
        progressive = spec.writesProgressive && writtenType.facts.encoder?.progressive == true
        effort = spec.webpEffort
        overlay = spec.watermark.map {
            Self.overlay($0, outputWidth: output.width, outputHeight: output.height)
        }
        keepsRights = spec.metadata == .copyright && writtenType.facts.encoder?.keepsRights == true
        flattenOnto = alphaToFlatten && !format.supportsAlpha ? spec.background : nil
        scale = max(Double(resized.width) / Double(width), Double(resized.height) / Double(height))
    }

    // MARK: - Steps

    /// The size the rotated `width`×`height` source is scaled to.
    private static func resize(width: Int, height: Int, spec: VariantSpec) -> (width: Int, height: Int) {
        /// The side scaled to exactly its target; the other follows the aspect ratio.
        enum Governing {
            case width(Int)
            case height(Int)
        }
        let governing: Governing
        switch (spec.width, spec.height) {
        case (let boxWidth?, let boxHeight?):
            let widthGoverns: Bool
            let widthRatio = Double(boxWidth) / Double(width)
            let heightRatio = Double(boxHeight) / Double(height)
            switch spec.fit {
            case .fill where spec.withoutEnlargement: return (min(boxWidth, width), min(boxHeight, height))
            case .fill: return (boxWidth, boxHeight)
            case .cover, .outside: widthGoverns = widthRatio >= heightRatio
            case .contain, .inside: widthGoverns = widthRatio <= heightRatio
            }
            governing = widthGoverns ? .width(boxWidth) : .height(boxHeight)
        case (let boxWidth?, nil): governing = .width(boxWidth)
        case (nil, let boxHeight?): governing = .height(boxHeight)
        case (nil, nil): preconditionFailure("a variant declares a width or a height")
        }
        switch governing {
        case .width(let target):
            if spec.withoutEnlargement && target >= width { return (width, height) }
            return (target, derivedSide(height, times: target, over: width))
        case .height(let target):
            if spec.withoutEnlargement && target >= height { return (width, height) }
            return (derivedSide(width, times: target, over: height), target)
        }
    }

    /// `side × numerator / denominator`, rounded half up as JavaScript does, at least 1.
    ///
    /// The product is formed before dividing, so a result that is exactly half a pixel rounds up reliably;
    /// it saturates at `Int32.max` so that an absurd source cannot trap the conversion.
    private static func derivedSide(_ side: Int, times numerator: Int, over denominator: Int) -> Int {
        let exact = Double(side) * Double(numerator) / Double(denominator)
        return max(1, Int(min(exact.rounded(.toNearestOrAwayFromZero), Double(Int32.max))))
    }

    private static func framing(resizedWidth: Int, resizedHeight: Int, spec: VariantSpec, focus: FocalPoint?)
        -> Framing
    {
        guard let boxWidth = spec.width, let boxHeight = spec.height else { return .none }
        switch spec.fit {
        case .cover:
            let width = min(boxWidth, resizedWidth)
            let height = min(boxHeight, resizedHeight)
            guard (width, height) != (resizedWidth, resizedHeight) else { return .none }
            if let interest = Interest(rawValue: spec.position.rawValue) {
                return .smartCrop(width: width, height: height, interest: interest)
            }
            let slackX = resizedWidth - width
            let slackY = resizedHeight - height
            let (x, y) =
                focus.map { focalOffset($0, resizedWidth, resizedHeight, width, height) }
                ?? gravityOffset(spec.position, slackX: slackX, slackY: slackY)
            return .crop(x: x, y: y, width: width, height: height)
        case .contain:
            guard (boxWidth, boxHeight) != (resizedWidth, resizedHeight) else { return .none }
            let x = (boxWidth - resizedWidth) / 2
            let y = (boxHeight - resizedHeight) / 2
            return .embed(width: boxWidth, height: boxHeight, x: x, y: y, background: spec.background)
        case .fill, .inside, .outside:
            return .none
        }
    }

    /// Where a crop starts when `slackX`/`slackY` pixels must go, as sharp's `CalculateCrop` places it.
    private static func gravityOffset(_ position: Position, slackX: Int, slackY: Int) -> (x: Int, y: Int) {
        let middleX = (slackX + 1) / 2
        let middleY = (slackY + 1) / 2
        return switch position {
        case .north: (middleX, 0)
        case .northeast: (slackX, 0)
        case .east: (slackX, middleY)
        case .southeast: (slackX, slackY)
        case .south: (middleX, slackY)
        case .southwest: (0, slackY)
        case .west: (0, middleY)
        case .northwest: (0, 0)
        case .centre, .entropy, .attention: (middleX, middleY)
        }
    }

    /// Where a `width`×`height` crop of the resized image starts to have the focal point at its centre, moved
    /// only as far as needed to stay inside the image.
    private static func focalOffset(
        _ focus: FocalPoint, _ resizedWidth: Int, _ resizedHeight: Int, _ width: Int, _ height: Int
    ) -> (x: Int, y: Int) {
        func start(_ fraction: Double, _ length: Int, _ window: Int) -> Int {
            let centred = (fraction * Double(length) - Double(window) / 2).rounded(.toNearestOrAwayFromZero)
            return min(length - window, max(0, Int(centred)))
        }
        return (start(focus.x, resizedWidth, width), start(focus.y, resizedHeight, height))
    }

    private static func format(
        of spec: VariantSpec, sourceFormat: OutputFormat?, sourceHasAlpha: Bool
    ) -> OutputFormat {
        guard spec.format == .original else { return spec.format }
        if let sourceFormat, sourceFormat != .original { return sourceFormat }
        return sourceHasAlpha ? .png : .jpeg
    }
}
