/// Executes a `RenderPlan` on the one decode of an object and encodes the result.
///
/// The base image is already oriented, sRGB and reduced to the largest size any plan needs, so every step
/// here works on an in-memory image of a few megapixels at most.
enum Renderer {
    /// An encoded rendition, before it is checked and written.
    struct Output {
        var bytes: [UInt8]
        var width: Int
        var height: Int
        var format: OutputFormat
    }

    /// aom's fastest speed: the AVIF target is a 1600-pixel rendition in about 0.2 s on one core.
    static let avifSpeed = 9
    /// Huffman tables fitted to each picture: fitting them adds 1–2.5 ms to jpegli's 10 ms for a 1600-pixel
    /// rendition, for files 2.5 % smaller with the same pixels; docs/Benchmarks.md has the figures.
    static let jpegOptimizedCoding = true
    /// zlib level 6 (effort 7 of 1…10): libpng's default trade-off.
    static let pngEffort = 7

    /// Applies the plan's geometry and filters, resampling from the smallest rung of the ladder that is large
    /// enough; the resized image joins the ladder when later sizes can use it. The result is materialised so
    /// its cost is measured here.
    ///
    /// - Parameter watermark: The decoded watermark the plan's `overlay` places.
    static func prepare(
        _ plan: RenderPlan, spec: VariantSpec, ladder: inout ResizeLadder, watermark: VipsImage? = nil
    ) throws(BackendError) -> VipsImage {
        try prepare(plan, framing: plan.framing, spec: spec, ladder: &ladder, watermark: watermark).image
    }

    /// `prepare` with `framing` in place of the plan's; also returns the framing applied, a smart crop as the
    /// rectangle it chose.
    private static func prepare(
        _ plan: RenderPlan, framing: RenderPlan.Framing, spec: VariantSpec, ladder: inout ResizeLadder,
        watermark: VipsImage?
    ) throws(BackendError) -> (image: VipsImage, framing: RenderPlan.Framing) {
        var image = try resize(plan, spec: spec, ladder: &ladder)
        // After the resize, which joined the ladder unmirrored; before the crop, which cuts the mirrored picture.
        if plan.mirrored { image = try image.flipped(horizontal: true) }
        if spec.blur > 0 { image = try image.blurred(sigma: spec.blur) }
        if spec.sharpen > 0 { image = try image.sharpened(sigma: spec.sharpen) }
        var applied = framing
        switch framing {
        case .none:
            break
        case .crop(let x, let y, let width, let height):
            image = try image.cropped(left: x, top: y, width: width, height: height)
        case .smartCrop(let width, let height, let interest):
            let chosen = try image.smartCropped(
                width: width, height: height, attention: interest == .attention)
            image = chosen.image
            applied = .crop(x: chosen.left, y: chosen.top, width: width, height: height)
        case .embed(let width, let height, let x, let y, let background):
            let rgba = (
                Double(background.red), Double(background.green), Double(background.blue),
                Double(background.alpha)
            )
            image = try image.embedded(left: x, top: y, width: width, height: height, background: rgba)
        }
        if let overlay = plan.overlay, let watermark {
            image = try image.overlaid(
                watermark.resized(toWidth: overlay.width, height: overlay.height), x: overlay.x, y: overlay.y,
                opacity: overlay.opacity)
        }
        if let colour = plan.flattenOnto, image.hasAlpha {
            image = try image.flattened(
                background: (Double(colour.red), Double(colour.green), Double(colour.blue)))
        }
        return (try image.materialized(), applied)
    }

    /// A rendition taken from the store still leaves its rung on the ladder, so whatever resamples after it
    /// (the ThumbHash above all) gets the same pixels whether the rendition was made now or earlier.
    static func replay(_ plan: RenderPlan, spec: VariantSpec, ladder: inout ResizeLadder) throws(BackendError)
    {
        guard joinsLadder(plan, spec: spec) else { return }
        _ = try resize(plan, spec: spec, ladder: &ladder)
    }

    /// Only an unrotated, unstretched, untrimmed resize keeps the decode's orientation and aspect ratio.
    private static func joinsLadder(_ plan: RenderPlan, spec: VariantSpec) -> Bool {
        plan.rotation == .d0 && spec.fit != .fill && plan.trim == nil
    }

    /// The plan's trim, rotation and resize, from the smallest rung large enough (the decode itself for a
    /// trim, whose rectangle is in its pixels), materialised.
    private static func resize(_ plan: RenderPlan, spec: VariantSpec, ladder: inout ResizeLadder)
        throws(BackendError) -> VipsImage
    {
        let swapped = plan.rotation.swapsSides
        var image: VipsImage
        if let trim = plan.trim {
            image = try ladder.base.cropped(left: trim.x, top: trim.y, width: trim.width, height: trim.height)
        } else {
            image = ladder.source(
                width: swapped ? plan.resizeHeight : plan.resizeWidth,
                height: swapped ? plan.resizeWidth : plan.resizeHeight)
        }
        if plan.rotation != .d0 { image = try image.rotated(degrees: plan.rotation.rawValue) }
        image = try image.resized(toWidth: plan.resizeWidth, height: plan.resizeHeight).materialized()
        if joinsLadder(plan, spec: spec) { ladder.add(image) }
        return image
    }

    /// An animated WebP: every frame prepared like a still, then encoded together with its delays and loop.
    static func animate(
        _ animation: DecodedPicture.Animation, plan: RenderPlan, spec: VariantSpec, metadata: MetadataBlocks,
        watermark: VipsImage? = nil
    ) throws(BackendError) -> Output {
        var frames: [[UInt8]] = []
        var size: VipsHeader?
        // A smart crop is chosen on the first frame, as for a still of the picture, and kept for every later
        // one: chosen frame by frame, the window would follow whatever moves and the picture would jump about.
        var framing = plan.framing
        for frame in animation.frames {
            var ladder = ResizeLadder(base: frame)
            let prepared = try prepare(
                plan, framing: framing, spec: spec, ladder: &ladder, watermark: watermark)
            framing = prepared.framing
            size = prepared.image.header
            frames.append(try prepared.image.pixelBytes())
        }
        guard let size else { throw BackendError(call: "animate", message: "the animation has no frames") }
        let animated = try WebPEncoder.encodeAnimation(
            frames: frames, width: size.width, height: size.height, bands: size.bands,
            delays: animation.delays,
            loop: animation.loop, quality: plan.quality ?? 100, effort: plan.effort, threads: 1)
        let bytes = try WebPEncoder.adding(metadata, to: animated)
        return Output(bytes: bytes, width: size.width, height: size.height, format: plan.format)
    }

    /// Encodes a prepared image in the plan's format, every metadata block stripped but `metadata`'s.
    /// With a score target, at the lowest quality that reaches it (`QualitySearch`).
    static func encode(_ image: VipsImage, plan: RenderPlan, metadata: MetadataBlocks = .none)
        throws(BackendError) -> Output
    {
        let header = image.header
        let encode = { (quality: Int) throws(BackendError) in
            try Self.bytes(of: image, plan: plan, quality: quality, metadata: metadata)
        }
        let bytes: [UInt8]
        if let target = plan.scoreTarget,
            let found = try QualitySearch.lowest(
                reaching: Double(target), of: image, format: plan.format, encode: encode)
        {
            bytes = found.bytes
        } else {
            bytes = try encode(plan.quality ?? 100)
        }
        return Output(bytes: bytes, width: header.width, height: header.height, format: plan.format)
    }

    private static func bytes(of image: VipsImage, plan: RenderPlan, quality: Int, metadata: MetadataBlocks)
        throws(BackendError) -> [UInt8]
    {
        // The one call into each encoder; what each takes is the formats table's (`FormatFacts.Encoder`), read
        // into the plan.
        switch plan.format {
        case .original:
            preconditionFailure("a plan resolves `original` to a format")
        case .jpeg:
            return try JPEGEncoder.encode(
                image, quality: quality, progressive: plan.progressive, optimizedCoding: jpegOptimizedCoding,
                metadata: metadata)
        case .png:
            return try image.encodedAsPNG(effort: pngEffort)
        case .webp:
            return try WebPEncoder.adding(
                metadata, to: WebPEncoder.encode(image, quality: quality, effort: plan.effort, threads: 1))
        case .avif:
            return try HeifEncoder.avif(
                image, quality: quality, speed: avifSpeed, threads: 1, metadata: metadata)
        }
    }
}
