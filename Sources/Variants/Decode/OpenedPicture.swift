/// A picture whose header has been read and checked against the limits; no pixel is decoded yet.
///
/// JPEG, PNG, WebP and GIF go through libvips' named loaders; the HEIF family through our libheif shim,
/// because libvips 8.14's HEIF loader fails on real phone photos that libheif 1.19 itself decodes.
struct OpenedPicture {
    private enum Backend {
        case vips(VipsLoader)
        case heif(HeifContainer)
    }

    let type: MediaType
    let header: PictureHeader
    private let bytes: [UInt8]
    private let decodingThreads: Int
    private let backend: Backend

    /// What a HEIF primary item may be coded as; anything else (`unci`, `jpeg`, `j2k1`, `vvc1`, …) is refused.
    private static let heifCodings: Set<String> = ["hvc1", "av01", "iden", "iovl"]

    /// Reads the header and applies the limits.
    init(bytes: [UInt8], type: MediaType, limits: Limits) throws(VariantsError) {
        guard !bytes.isEmpty else { throw .unreadable(.empty, "the file is empty") }
        try limits.checkMetadata(ContainerCheck.metadataBytes(bytes, as: type))
        self.bytes = bytes
        self.type = type
        decodingThreads = limits.decodingThreads
        if type.isHEIFFamily {
            let container = try Self.openHEIF(bytes, limits: limits)
            backend = .heif(container)
            let info = container.info
            header = PictureHeader(
                storedWidth: info.width, storedHeight: info.height, orientation: 1, hasAlpha: info.hasAlpha,
                bitDepth: info.bitDepth, frames: max(1, info.topLevelImages), progressive: false)
        } else {
            let loader = try Self.loader(for: type)
            backend = .vips(loader)
            let image: VipsImage
            do {
                image = try VipsImage.load(loader, bytes: bytes)
            } catch {
                throw Self.classify(bytes, type, failedStep: "header", error)
            }
            let info = image.header
            header = PictureHeader(
                storedWidth: info.width, storedHeight: info.height, orientation: info.orientation,
                hasAlpha: info.hasAlpha, bitDepth: info.bitsPerSample, frames: info.pages,
                progressive: info.interlaced)
        }
        try limits.checkPixels(
            width: header.storedWidth, height: header.storedHeight, progressive: header.progressive)
        try limits.checkFrames(header.frames)
    }

    /// Decodes to 8-bit sRGB, oriented, and scaled down to the size `target` asks for given the picture's
    /// displayed size (never larger than it): the one decode every rendition of this object comes from.
    func decode(target: (_ width: Int, _ height: Int) -> (width: Int, height: Int)) throws(VariantsError)
        -> DecodedPicture
    {
        // Every backend decodes the size the header declares (for HEIF, libheif's size after irot/imir/clap
        // of the displayed item), so the target is asked for once.
        let size = target(header.displayedWidth, header.displayedHeight)
        let quarterTurn = header.orientation >= 5
        let (storedWidth, storedHeight) = quarterTurn ? (size.height, size.width) : (size.width, size.height)
        do {
            let loaded: VipsImage
            switch backend {
            case .heif(let container):
                let factor = try Self.tileReduction(container, header: header, to: size)
                loaded =
                    try factor > 1
                    ? container.decodeReduced(factor: factor, threads: decodingThreads)
                    : container.decode()
            case .vips(let loader):
                let shrink = loader == .jpeg ? Self.jpegShrink(from: header.storedWidth, to: storedWidth) : 1
                let scale = loader == .webp ? Double(storedWidth) / Double(header.storedWidth) : 1
                loaded = try VipsImage.load(loader, bytes: bytes, shrink: shrink, scale: scale)
            }
            // Colour conversion after the reduction: an ICC transform costs per pixel, and a 200-megapixel
            // photo has a hundred times the pixels of its largest rendition.
            let image = try loaded.resized(toWidth: storedWidth, height: storedHeight)
                .convertedToSRGB()
                .materialized()
                .autorotated()
            return DecodedPicture(image: image, width: header.displayedWidth, height: header.displayedHeight)
        } catch {
            throw Self.classify(bytes, type, failedStep: "decode", error)
        }
    }

    // MARK: - Helpers

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

    /// The largest JPEG shrink-on-load factor that still leaves at least `target` pixels across.
    private static func jpegShrink(from stored: Int, to target: Int) -> Int {
        [8, 4, 2].first { stored / $0 >= target } ?? 1
    }

    private static func loader(for type: MediaType) throws(VariantsError) -> VipsLoader {
        switch type {
        case .jpeg: return .jpeg
        case .png: return .png
        case .webp: return .webp
        case .gif: return .gif
        default: throw VariantsError(.unsupportedMediaType, "\(type.mimeType) is not decoded here")
        }
    }

    private static func openHEIF(_ bytes: [UInt8], limits: Limits) throws(VariantsError) -> HeifContainer {
        if ContainerCheck.isTruncated(bytes, as: .heif) {
            throw .unreadable(.truncated, "a box of the HEIF container runs past the end of the file")
        }
        let heifLimits = HeifContainer.Limits(
            maxPixels: limits.maxPixels, maxMemoryBlock: limits.maxHEIFMemoryBlock,
            maxItems: limits.maxHEIFItems,
            maxTiles: limits.maxHEIFItems, threads: limits.decodingThreads)
        let container: HeifContainer
        do {
            container = try HeifContainer(bytes: bytes, limits: heifLimits)
        } catch {
            throw .unreadable(.corrupt, "the HEIF container cannot be read (\(error.message))")
        }
        let coding = container.info.itemType == "grid" ? container.info.codedType : container.info.itemType
        guard heifCodings.contains(coding) else {
            throw .unreadable(
                .unsupportedFeature, "the primary image is coded as '\(coding)', which is not decoded here")
        }
        return container
    }

    /// Turns a backend failure into the reason the bytes themselves show: an unsupported coding, a
    /// container cut short, or else corrupt data.
    private static func classify(
        _ bytes: [UInt8], _ type: MediaType, failedStep: String, _ error: BackendError
    ) -> VariantsError {
        if type == .jpeg, let feature = JPEGStructure(bytes).unsupportedFeature {
            return .unreadable(.unsupportedFeature, "\(feature) is not decoded here")
        }
        if ContainerCheck.isTruncated(bytes, as: type) {
            return .unreadable(.truncated, "the \(type.mimeType) data ends early (\(error.message))")
        }
        return .unreadable(
            .corrupt, "the \(type.mimeType) \(failedStep) cannot be decoded (\(error.message))")
    }
}
