/// A picture whose header has been read and checked against the limits; no pixel is decoded yet.
///
/// JPEG, PNG, WebP and GIF headers are read by libvips' named loaders, and so are their pixels, but for grey
/// and YCbCr JPEGs, which libjpeg-turbo decodes for us in one call (`JPEGDecoder`); the HEIF family goes
/// through our libheif shim, because libvips 8.14's HEIF loader fails on real phone photos that libheif 1.19
/// itself decodes; a video is its poster frame, through FFmpeg (`OpenedPicture+Video`).
struct OpenedPicture {
    private enum Backend {
        /// With the header the loader read, whose description a decode made outside libvips takes.
        case vips(VipsLoader, VipsImage)
        /// With the overlay we compose ourselves, when the primary item is one libheif gets wrong.
        case heif(HeifContainer, HEIFOverlay?)
        /// The demuxer that opened the video, and its stream as the container describes it.
        case video(VideoDemuxer, VideoStream)
    }

    let type: MediaType
    let header: PictureHeader
    /// The video stream whose poster frame is the picture; nil for a picture.
    var video: VideoStream? {
        guard case .video(_, let stream) = backend else { return nil }
        return stream
    }
    private let bytes: [UInt8]
    private let decodingThreads: Int
    /// The pixel limit, which an animation's frames together must also keep.
    private let maxPixels: Int
    private let backend: Backend
    /// CMYK pixels and lookup-table profiles convert non-linearly: averaging pixels before converting them
    /// shifts colours, so these pictures are converted at full size, before any reduction.
    private let convertsBeforeReducing: Bool
    /// A colour description that is not a profile (PNG `gAMA`/`cHRM`, HEIF `nclx`), as a profile to convert
    /// through when no ICC profile is embedded.
    private let describedProfile: SynthesizedProfile?
    /// A HEIF picture whose `nclx` transfer is PQ or HLG (a JPEG XL one whose colour encoding is), tone-mapped
    /// rather than read as SDR.
    private let toneMapping: ToneMapping?

    /// What a HEIF primary item may be coded as; anything else (`unci`, `jpeg`, `j2k1`, `vvc1`, …) is refused.
    private static let heifCodings: Set<String> = ["hvc1", "av01", "iden", "iovl"]

    /// Reads the header and applies the limits.
    init(bytes: [UInt8], type: MediaType, limits: Limits) throws(VariantsError) {
        guard !bytes.isEmpty else { throw .unreadable(.empty, "the file is empty") }
        try limits.checkMetadata(ContainerCheck.metadataBytes(bytes, as: type))
        if ContainerCheck.hasBadChecksum(bytes, as: type) {
            throw .unreadable(.corrupt, "a critical chunk of the \(type.mimeType) data fails its CRC")
        }
        self.bytes = bytes
        self.type = type
        decodingThreads = limits.decodingThreads
        maxPixels = limits.maxPixels
        switch type.facts.decoder {
        case .heif:
            let (container, overlay) = try Self.openHEIF(bytes, limits: limits)
            backend = .heif(container, overlay)
            convertsBeforeReducing = false
            describedProfile = container.info.nclx.flatMap(SynthesizedProfile.init(nclx:))
            toneMapping = overlay == nil ? container.info.nclx.flatMap(ToneMapping.init(nclx:)) : nil
            let info = container.info
            let shown = overlay.map(container.shownArea)
            header = PictureHeader(
                storedWidth: shown?.width ?? info.width, storedHeight: shown?.height ?? info.height,
                orientation: overlay?.orientation ?? 1, hasAlpha: overlay?.hasAlpha ?? info.hasAlpha,
                bitDepth: info.bitDepth,
                frames: max(1, info.topLevelImages), progressive: false)
        case .vips(let loader):
            let image: VipsImage
            do {
                image = try VipsImage.load(loader, bytes: bytes)
            } catch {
                throw Self.classify(bytes, type, failedStep: "header", error, limits: limits)
            }
            backend = .vips(loader, image)
            let info = image.header
            convertsBeforeReducing = info.isCMYK || ICCProfile.usable(in: image)?.isLUTBased == true
            // Only PNG's chunks describe colour without a profile (`gAMA`, `cHRM`).
            describedProfile =
                type.facts.container == .pngChunks
                ? SynthesizedProfile(png: bytes, grey: info.bands < 3) : nil
            // libjxl describes a JPEG XL's colour encoding as a profile; the samples libvips returns are
            // still in its transfer, so a PQ or HLG one is tone-mapped from them.
            toneMapping =
                loader == .jxl
                ? image.iccProfile.flatMap(ICCProfile.init)?.codePoints.flatMap(ToneMapping.init(nclx:)) : nil
            // The frames last as long as they show, which is how long the WebP renditions play them; a still
            // picture's delays are not read.
            let duration =
                info.pages > 1 && type.facts.animates
                ? DecodedPicture.Animation.shownDelays(
                    image.animation(frames: info.pages).delays, frames: info.pages
                ).reduce(0, +) : 0
            header = PictureHeader(
                storedWidth: info.width, storedHeight: info.height, orientation: info.orientation,
                hasAlpha: info.hasAlpha, bitDepth: info.bitsPerSample, frames: info.pages,
                duration: duration, progressive: info.interlaced)
        case .video(let demuxer):
            let stream = try Self.openVideo(bytes, type: type, demuxer: demuxer, limits: limits)
            backend = .video(demuxer, stream)
            convertsBeforeReducing = false
            describedProfile = nil
            toneMapping = stream.toneMapping
            header = PictureHeader(
                storedWidth: stream.width, storedHeight: stream.height, orientation: stream.orientation,
                hasAlpha: false, bitDepth: 8, frames: 1, progressive: false)
        case nil:
            throw VariantsError(.unsupportedMediaType, "\(type.mimeType) is not decoded here")
        }
        try limits.checkPixels(
            width: header.storedWidth, height: header.storedHeight, progressive: header.progressive)
        if type.facts.pages {
            try limits.checkPages(header.frames)
        } else {
            try limits.checkFrames(header.frames)
        }
    }

    /// A PDF's first page in points, as shown: its size at the loader's nominal scale, to the half point.
    var pageSize: PageSize? {
        guard type.facts.measuredInPoints, case .vips(let loader, _) = backend else { return nil }
        return PageSize(
            width: Double(header.storedWidth) / loader.nominalScale,
            height: Double(header.storedHeight) / loader.nominalScale)
    }

    /// Decodes to 8-bit sRGB, oriented, and scaled down to the size `target` asks for given the picture's
    /// displayed size (never larger than it): the one decode every rendition of this object comes from.
    /// With `animated`, an animated GIF or WebP also decodes every frame (their pixels together under the
    /// pixel limit).
    func decode(animated: Bool = false, target: (_ width: Int, _ height: Int) -> (width: Int, height: Int))
        throws(VariantsError) -> DecodedPicture
    {
        let animates = animated && header.frames > 1 && type.facts.animates
        if animates {
            let (pixels, overflow) = (header.storedWidth * header.storedHeight).multipliedReportingOverflow(
                by: header.frames)
            guard !overflow, pixels <= maxPixels else {
                throw .unreadable(
                    .tooManyPixels,
                    "\(header.frames) frames of \(header.storedWidth)×\(header.storedHeight), over the limit of \(maxPixels) pixels"
                )
            }
        }
        // Every backend decodes the size the header declares (for HEIF, libheif's size after irot/imir/clap
        // of the displayed item), so the target is asked for once.
        let size = target(header.displayedWidth, header.displayedHeight)
        let quarterTurn = header.orientation >= 5
        let (storedWidth, storedHeight) = quarterTurn ? (size.height, size.width) : (size.width, size.height)
        do {
            let loaded: VipsImage
            switch backend {
            case .heif(let container, let overlay):
                if let overlay {
                    loaded = try container.decodeOverlay(overlay)
                    loaded.setOrientation(overlay.orientation)
                } else if let toneMapping {
                    loaded = try toneMapping.image(from: container)
                } else {
                    let factor = try Self.tileReduction(container, header: header, to: size)
                    loaded =
                        try factor > 1
                        ? container.decodeReduced(factor: factor, threads: decodingThreads)
                        : container.decode()
                }
            case .vips(let loader, let headerImage):
                let reduction = convertsBeforeReducing ? nil : loader.reduction
                let shrink =
                    reduction == .shrink
                    ? Self.shrinkOnLoad(
                        from: (header.storedWidth, header.storedHeight), to: (storedWidth, storedHeight)) : 1
                let scale = reduction == .scale ? Double(storedWidth) / Double(header.storedWidth) : 1
                let info = headerImage.header
                if let toneMapping {
                    loaded = try toneMapping.image(from: VipsImage.load(loader, bytes: bytes))
                    loaded.setOrientation(info.orientation)
                } else if loader == .jpeg, !info.isCMYK,
                    JPEGDecoder.decodesWhole(
                        width: info.width, height: info.height, bands: info.bands, shrink: shrink)
                {
                    loaded = try JPEGDecoder.decode(bytes, shrink: shrink)
                    loaded.takeDescription(of: headerImage)
                } else {
                    loaded = try VipsImage.load(loader, bytes: bytes, shrink: shrink, scale: scale)
                }
            case .video(let demuxer, let stream):
                loaded = try Self.poster(bytes, demuxer: demuxer, stream: stream, maxPixels: maxPixels)
            }
            // Colour conversion comes after the reduction (an ICC transform costs per pixel, and a 200-megapixel
            // photo has a hundred times the pixels of its largest rendition) unless it is non-linear; an sRGB
            // profile is not applied at all.
            if let describedProfile, loaded.iccProfile == nil {
                loaded.attachICCProfile(describedProfile.bytes)
            }
            let ignored = Self.dropUnusableProfile(loaded)
            let profile = ICCProfile.usable(in: loaded)
            let intent: ICCProfile.Intent? = profile?.isSRGB == true ? nil : profile?.intent ?? .perceptual
            let converted: (image: VipsImage, profile: VipsImage.ProfileOutcome)
            if convertsBeforeReducing || profile?.isLUTBased == true {
                let full = try loaded.convertedToSRGB(intent: intent)
                converted = (try full.image.resized(toWidth: storedWidth, height: storedHeight), full.profile)
            } else {
                converted = try loaded.resized(toWidth: storedWidth, height: storedHeight)
                    .convertedToSRGB(intent: intent)
            }
            let image = try converted.image.materialized().autorotated()
            var decoded = DecodedPicture(
                image: image, width: header.displayedWidth, height: header.displayedHeight,
                profileIgnored: ignored || converted.profile == .ignored, toneMapped: toneMapping?.transfer)
            switch backend {
            case .vips(_, let headerImage): decoded.rights = RightsMetadata(headerImage.metadataBlocks)
            case .heif(let container, _):
                decoded.rights = RightsMetadata(
                    container.metadataBlocks(maxLength: RightsMetadata.maximumBlockBytes))
            case .video: break
            }
            // A later frame that cannot be decoded leaves the picture a still of its first frame.
            if animates, case .vips(let loader, _) = backend {
                decoded.animation = try? animation(
                    loader, width: storedWidth, height: storedHeight, intent: intent)
            }
            return decoded
        } catch {
            throw Self.classify(bytes, type, failedStep: "decode", error, limits: nil)
        }
    }

    // MARK: - Helpers

    /// Every frame, reduced and converted like the first. libvips composes each frame onto the ones before as
    /// the file's disposal says, so each is a whole picture.
    private func animation(_ loader: VipsLoader, width: Int, height: Int, intent: ICCProfile.Intent?)
        throws(BackendError) -> DecodedPicture.Animation
    {
        let strip = try VipsImage.load(loader, bytes: bytes, allFrames: true).materialized()
        Self.dropUnusableProfile(strip)
        let (frameHeight, loop, delays) = strip.animation(frames: header.frames)
        let count = frameHeight > 0 ? strip.height / frameHeight : 0
        var frames: [VipsImage] = []
        for index in 0..<count {
            let frame = try strip.cropped(
                left: 0, top: index * frameHeight, width: strip.width, height: frameHeight
            )
            .resized(toWidth: width, height: height).convertedToSRGB(intent: intent).image
            frames.append(try frame.materialized().autorotated())
        }
        return DecodedPicture.Animation(
            frames: frames, delays: DecodedPicture.Animation.shownDelays(delays, frames: count), loop: loop)
    }

    /// Removes an embedded profile that cannot be used on `image`'s pixels (`ICCProfile.usable(in:)`), so
    /// they convert exactly as a picture's without one would (CMYK through libvips' print profile) where
    /// libvips would pick a stand-in of its own; whether it did.
    @discardableResult
    private static func dropUnusableProfile(_ image: VipsImage) -> Bool {
        guard image.iccProfile != nil, ICCProfile.usable(in: image) == nil else { return false }
        image.removeICCProfile()
        return true
    }

    /// How much a HEIF grid may be averaged down tile by tile: the largest power of two that keeps at least
    /// the target size and divides the tiles and their offsets, so every block of pixels lies in one tile.
    /// 1 (decode whole) for pictures with alpha and pictures that are not grids.
    private static func tileReduction(
        _ container: HeifContainer, header: PictureHeader, to size: (width: Int, height: Int)
    ) throws(BackendError) -> Int {
        guard !header.hasAlpha else { return 1 }
        let tiling = try container.tiling()
        guard tiling.columns * tiling.rows > 1 else { return 1 }
        return [16, 8, 4, 2].first { factor in
            header.displayedWidth / factor >= size.width && header.displayedHeight / factor >= size.height
                && [tiling.tileWidth, tiling.tileHeight, tiling.leftOffset, tiling.topOffset].allSatisfy {
                    $0 % factor == 0
                }
        } ?? 1
    }

    /// The largest shrink-on-load factor (`VipsLoader.Reduction.shrink`) that still leaves at least `target`
    /// on both sides.
    private static func shrinkOnLoad(
        from stored: (width: Int, height: Int), to target: (width: Int, height: Int)
    ) -> Int {
        [8, 4, 2].first { stored.width / $0 >= target.width && stored.height / $0 >= target.height } ?? 1
    }

    /// The container libheif reads, and the overlay we compose when libheif would get the primary item wrong
    /// (libheif then reads a copy without references, for the overlay's images).
    private static func openHEIF(_ bytes: [UInt8], limits: Limits) throws(VariantsError) -> (
        HeifContainer, HEIFOverlay?
    ) {
        if ContainerCheck.isTruncated(bytes, as: .heif) {
            throw .unreadable(.truncated, "a box of the HEIF container runs past the end of the file")
        }
        let heifLimits = HeifContainer.Limits(
            maxPixels: limits.maxPixels, maxMemoryBlock: limits.maxHEIFMemoryBlock,
            maxItems: limits.maxHEIFItems,
            maxTiles: limits.maxHEIFItems, threads: limits.decodingThreads)
        let overlay = try HEIFOverlay(composing: bytes, maxPlacements: limits.maxHEIFItems)
        let container: HeifContainer
        do {
            container = try HeifContainer(bytes: overlay?.tiles ?? bytes, limits: heifLimits)
        } catch {
            guard let repaired = HEIFReferenceRepair.repaired(bytes),
                let retried = try? HeifContainer(bytes: repaired, limits: heifLimits)
            else { throw .unreadable(.corrupt, "the HEIF container cannot be read (\(error.message))") }
            container = retried
        }
        let coding = container.info.itemType == "grid" ? container.info.codedType : container.info.itemType
        guard heifCodings.contains(coding) else {
            throw .unreadable(
                .unsupportedFeature, "the primary image is coded as '\(coding)', which is not decoded here")
        }
        return (container, overlay)
    }

    /// Turns a backend failure into the reason the bytes themselves show: a frame over the `limits` when
    /// the header failed (libjpeg refuses a side over 65,500 before ours are applied), an unsupported
    /// coding, a container cut short, or else corrupt data.
    private static func classify(
        _ bytes: [UInt8], _ type: MediaType, failedStep: String, _ error: BackendError, limits: Limits?
    ) -> VariantsError {
        if type.facts.container == .jpegSegments {
            let structure = JPEGStructure(bytes)
            if let limits, let size = structure.frameSize {
                do {
                    try limits.checkPixels(width: size.width, height: size.height)
                } catch {
                    return error
                }
                if max(size.width, size.height) > JPEGStructure.largestSide {
                    return .unreadable(
                        .unsupportedFeature,
                        "a \(size.width)×\(size.height) JPEG: sides over \(JPEGStructure.largestSide) pixels are not decoded here"
                    )
                }
            }
            if let feature = structure.unsupportedFeature {
                return .unreadable(.unsupportedFeature, "\(feature) is not decoded here")
            }
        }
        if ContainerCheck.isEncrypted(bytes, as: type) {
            return .unreadable(
                .encrypted, "the PDF is encrypted with a password it cannot be opened without")
        }
        if ContainerCheck.isTruncated(bytes, as: type) {
            return .unreadable(.truncated, "the \(type.mimeType) data ends early (\(error.message))")
        }
        return .unreadable(
            .corrupt, "the \(type.mimeType) \(failedStep) cannot be decoded (\(error.message))")
    }
}
