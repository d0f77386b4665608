/// The work done on one stored object: hash, sniff, probe, decode, measure, render every declared variant
/// from that one decode, write — or a typed error, with nothing written.
///
/// Runs synchronously on the calling thread; callers that face hostile input run it in a decoder child
/// process, because a C decoder can abort the process it runs in.
public struct Pipeline: Sendable {
    public var limits: Limits
    /// Where renditions are written; without one they are rendered and checked but not kept.
    public var store: (any RenditionStore)?

    /// Starts libvips (once per process).
    public init(limits: Limits = .default, store: (any RenditionStore)? = nil) throws(VariantsError) {
        do {
            try Vips.start()
        } catch {
            throw VariantsError(.internalError, "libvips did not start: \(error.message)")
        }
        self.limits = limits
        self.store = store
    }

    /// Fulfils an order from the object's bytes: refuses what its bucket's policy refuses, measures the
    /// picture, makes the renditions the order makes, and computes the ThumbHash and the dominant colour if
    /// the placeholder is wanted.
    public func run(_ order: RenditionOrder, bytes: [UInt8], timings: inout StageTimings)
        throws(VariantsError)
        -> CompletionMetadata
    {
        let request = order.object
        let byteLimit = min(limits.maxInputBytes, order.policy?.fileSizeLimit ?? .max)
        guard bytes.count <= byteLimit else {
            throw VariantsError(
                .payloadTooLarge, "the object is \(bytes.count) bytes, over the limit of \(byteLimit)")
        }
        let checksum = order.checksum ?? timings.measure(.hash) { SHA256.hex(bytes) }
        let (type, sniffed) = timings.measure(.sniff) {
            let sniffed = Sniffer.sniff(bytes.prefix(Sniffer.prefixLength))
            let type = Sniffer.resolve(
                sniffed: sniffed, declared: request.declaredContentType, fileName: request.path)
            return (type, sniffed)
        }
        try order.policy?.admit(type, path: request.path)
        var metadata = CompletionMetadata(
            bucket: request.bucket, path: request.path, size: bytes.count, contentType: type.mimeType,
            checksumSha256: checksum)

        guard type.isDecodable else {
            try refuseUndecodable(type, request: request)
            return metadata
        }
        guard sniffed != nil else {
            throw bytes.isEmpty
                ? .unreadable(.empty, "the file is empty")
                : .unreadable(.corrupt, "the bytes do not begin like a \(type.mimeType) file")
        }

        // Sound alone in a video container is no picture: reported as a non-picture is.
        if case .video(let demuxer) = type.facts.decoder,
            timings.measure(.probe, { OpenedPicture.holdsNoVideo(bytes, type: type, demuxer: demuxer) })
        {
            return metadata
        }
        let (picture, decoded, plans) = try decodeOnce(bytes, type: type, order: order, timings: &timings)
        metadata.width = decoded.width
        metadata.height = decoded.height
        metadata.hasAlpha = picture.header.hasAlpha
        if decoded.profileIgnored { metadata.colourProfile = "ignored" }
        metadata.toneMapped = decoded.toneMapped?.rawValue
        let animatedSource = type.facts.animates && picture.header.frames > 1
        if animatedSource {
            metadata.frames = picture.header.frames
            metadata.duration = Double(picture.header.duration)
        }
        if let video = picture.video {
            metadata.codec = video.codec.rawValue
            metadata.duration = video.duration
        }
        if type.facts.pages {
            metadata.pages = picture.header.frames
            metadata.pageSize = picture.pageSize
        }
        var ladder = ResizeLadder(base: decoded.image)
        if !plans.isEmpty {
            try renderVariants(
                plans, resamplesAfter: order.placeholder, animatedSource: animatedSource,
                ladder: &ladder, animation: decoded.animation, rights: decoded.rights, checksum: checksum,
                into: &metadata,
                timings: &timings)
        }
        guard order.placeholder else { return metadata }
        let placeholder = try timings.measure(.thumbhash) { () throws(VariantsError) in
            do {
                return try ThumbHashRendition.encode(from: ladder)
            } catch {
                throw VariantsError(.internalError, "the placeholder could not be computed (\(error))")
            }
        }
        metadata.thumbhash = placeholder.thumbhash
        metadata.dominantColour = placeholder.dominantColour
        return metadata
    }

    /// Benchmark support, not product API: sniffs, probes and decodes the bytes to the one image a bucket's
    /// variants are rendered from, and stops there — the floor under `run` that `variantd bench` divides
    /// its time by. It stays beside `run` so that both size the decode the same way.
    package func decodeOnly(_ order: RenditionOrder, bytes: [UInt8], timings: inout StageTimings)
        throws(VariantsError) -> (width: Int, height: Int)
    {
        let request = order.object
        let sniffed = Sniffer.sniff(bytes.prefix(Sniffer.prefixLength))
        let type = Sniffer.resolve(
            sniffed: sniffed, declared: request.declaredContentType, fileName: request.path)
        guard type.isDecodable, sniffed != nil else {
            throw VariantsError(.unsupportedMediaType, "the bytes are not a picture decoded here")
        }
        let decoded = try decodeOnce(bytes, type: type, order: order, timings: &timings).decoded
        return (decoded.width, decoded.height)
    }

    /// Probes and decodes once, at the size the largest planned rendition and the ThumbHash need; every
    /// frame of an animation only when a rendition made animates.
    private func decodeOnce(
        _ bytes: [UInt8], type: MediaType, order: RenditionOrder, timings: inout StageTimings
    ) throws(VariantsError) -> (picture: OpenedPicture, decoded: DecodedPicture, plans: [PlannedOutput]) {
        let picture = try timings.measure(.probe) { () throws(VariantsError) in
            try OpenedPicture(bytes: bytes, type: type, limits: limits)
        }
        var plans: [PlannedOutput] = []
        let decoded = try timings.measure(.decode) { () throws(VariantsError) in
            // `original` keeps a WebP source a WebP, so it animates as a `webp` variant does.
            let kept = OutputFormat(keeping: type)
            let animated = order.outputs.contains {
                $0.wanted && $0.spec.animated
                    && ($0.spec.format == .original ? kept : $0.spec.format)?.writtenType?.facts.animates
                        == true
            }
            return try picture.decode(animated: animated) { width, height in
                plans = order.outputs.map {
                    PlannedOutput(
                        output: $0,
                        plan: RenderPlan(
                            sourceWidth: width, sourceHeight: height, spec: $0.spec,
                            sourceHasAlpha: picture.header.hasAlpha, sourceFormat: kept))
                }
                return Self.baseSize(width: width, height: height, plans: plans.map(\.plan))
            }
        }
        for (index, planned) in plans.enumerated() {
            guard let threshold = planned.output.spec.trim else { continue }
            let trim = try timings.measure(.render, variant: planned.output.spec.name) {
                () throws(VariantsError) in
                try Self.trimmed(decoded, threshold: threshold)
            }
            // The decode is the whole picture for a trim (`baseSize`), and the border is found in its pixels.
            let spec = planned.output.spec
            plans[index].plan = RenderPlan(
                sourceWidth: decoded.image.width, sourceHeight: decoded.image.height, spec: spec,
                sourceHasAlpha: picture.header.hasAlpha, sourceFormat: OutputFormat(keeping: type), trim: trim
            )
        }
        return (picture, decoded, plans)
    }

    /// What is left of the decode once its border is removed, in its pixels; nil when it has no border, or is
    /// all border.
    private static func trimmed(_ decoded: DecodedPicture, threshold: Int) throws(VariantsError)
        -> RenderPlan.Region?
    {
        let box: (left: Int, top: Int, width: Int, height: Int)?
        do {
            box = try decoded.image.trimBox(threshold: Double(threshold))
        } catch {
            throw VariantsError(.internalError, "the border could not be found (\(error))")
        }
        guard let box, (box.width, box.height) != (decoded.image.width, decoded.image.height) else {
            return nil
        }
        return RenderPlan.Region(x: box.left, y: box.top, width: box.width, height: box.height)
    }

    /// The size of the one decode: on each side the most that any rendition or the ThumbHash needs there,
    /// never larger than the picture (enlarging variants grow from the full-size decode). A rendition of the
    /// picture's own shape needs exactly its size, so the largest one is not resampled a second time for a
    /// pixel of rounding; a stretched one (`fill`) needs the picture scaled evenly until it covers it. A
    /// trimmed one needs the whole picture.
    static func baseSize(width: Int, height: Int, plans: [RenderPlan]) -> (width: Int, height: Int) {
        let needs = plans.map { plan in
            // A border is found to the pixel on the whole picture.
            if plan.trimThreshold != nil { return (width: width, height: height) }
            let (sideW, sideH) =
                plan.rotation.swapsSides
                ? (plan.resizeHeight, plan.resizeWidth) : (plan.resizeWidth, plan.resizeHeight)
            let evenHeight = Double(height) * Double(sideW) / Double(width)
            if abs(Double(sideH) - evenHeight) <= 1 { return (width: sideW, height: sideH) }
            func side(_ length: Int) -> Int { max(1, Int((Double(length) * plan.scale).rounded(.up))) }
            return (width: side(width), height: side(height))
        }
        let placeholder = ThumbHashRendition.size(width: width, height: height)
        return (
            min(width, needs.map(\.width).reduce(placeholder.width, max)),
            min(height, needs.map(\.height).reduce(placeholder.height, max))
        )
    }

    /// A picture type we never decode is refused as unsupported; a non-picture named or declared as a
    /// picture is refused as not a picture; any other non-picture is simply reported.
    private func refuseUndecodable(_ type: MediaType, request: ObjectRequest) throws(VariantsError) {
        if type.isPicture {
            throw VariantsError(.unsupportedMediaType, "\(type.mimeType) pictures are not decoded here")
        }
        if let claimed = Sniffer.claimedPicture(declared: request.declaredContentType, fileName: request.path)
        {
            throw .unreadable(
                .notAPicture, "the object claims to be \(claimed.mimeType) but its bytes are \(type.mimeType)"
            )
        }
    }
}
