/// A primary `iovl` (overlay) item that we compose ourselves, because libheif 1.19 does not compose it as
/// ISO/IEC 23008-12 says: it refuses a file whose overlay places one tile twice ("'iref' has double
/// references"), and it leaves out every tile placed at a negative offset (only partly on the canvas). Every
/// other overlay — offsets, fill colour, overlapping tiles, tiles past the right or bottom edge or wholly
/// outside — libheif composes right, and keeps doing so.
///
/// The canvas is filled with the overlay's colour, then each tile, decoded by libheif with its own
/// transformations, is placed at its offset in reference order (a later tile covers an earlier one), clipped
/// to the canvas; the overlay's own crop, rotation and mirroring are then applied, in that order (the turns
/// as an EXIF orientation would be).
struct HEIFOverlay: Sendable, Equatable {
    struct Placement: Sendable, Equatable {
        var item: Int
        var x: Int
        var y: Int
    }

    var width: Int
    var height: Int
    /// The canvas colour, 16 bits a channel: red, green, blue, alpha.
    var fill: [UInt16]
    var placements: [Placement]
    /// The file as libheif opens it to decode the tiles: without references, `pitm` naming the first tile, no
    /// tile hidden.
    var tiles: [UInt8]
    /// The overlay's own item, whose properties libheif reads from `tiles` too.
    var item: Int
    /// Whether the overlay is cropped (`clap`, before any turn): `HeifContainer.shownArea` says to what.
    var hasCleanAperture: Bool
    /// The overlay's `irot` and `imir` as the EXIF orientation (1–8) that shows it, applied after composing
    /// and cropping.
    var orientation: Int

    var hasAlpha: Bool { fill[3] != 0xFFFF }

    /// The primary item's overlay when libheif would get it wrong; nil for every other file.
    init?(composing bytes: [UInt8], maxPlacements: Int) throws(VariantsError) {
        guard let meta = HEIFMeta(bytes), meta.primaryType == "iovl" else { return nil }
        let tileIDs = meta.references.first { $0.type == "dimg" && $0.from == meta.primary }?.to ?? []
        guard !tileIDs.isEmpty, let payload = meta.data(of: meta.primary) else {
            throw .unreadable(.corrupt, "the HEIF overlay names no images or its description cannot be read")
        }
        guard tileIDs.count <= maxPlacements else {
            throw .unreadable(
                .corrupt,
                "the HEIF overlay places \(tileIDs.count) images, over the limit of \(maxPlacements)")
        }
        var reader = HEIFMeta.Reader(bytes: payload, offset: 0, end: payload.count)
        // One byte of version and one of flags (not a full box's four).
        guard reader.skip(1), let flags = reader.int(1) else {
            throw .unreadable(.corrupt, "the HEIF overlay description is empty")
        }
        let fieldSize = flags & 1 == 1 ? 4 : 2
        let fill = (0..<4).compactMap { _ in reader.int(2).map(UInt16.init) }
        let canvas = (reader.int(fieldSize), reader.int(fieldSize))
        let offsets = (0..<tileIDs.count * 2).compactMap { _ in
            reader.int(fieldSize).map { Self.signed($0, bytes: fieldSize) }
        }
        guard fill.count == 4, let width = canvas.0, let height = canvas.1, width > 0, height > 0,
            offsets.count == tileIDs.count * 2
        else {
            throw .unreadable(.corrupt, "the HEIF overlay description ends early")
        }
        let placements = tileIDs.indices.map {
            Placement(item: tileIDs[$0], x: offsets[2 * $0], y: offsets[2 * $0 + 1])
        }
        guard meta.hasRepeatedReference || placements.contains(where: { $0.x < 0 || $0.y < 0 }) else {
            return nil
        }
        let properties = meta.properties(of: meta.primary)
        let transformations = properties.map(\.type).filter { ["clap", "irot", "imir"].contains($0) }
        guard transformations.indices.filter({ transformations[$0] == "clap" }).allSatisfy({ $0 == 0 }) else {
            throw .unreadable(
                .unsupportedFeature,
                "a HEIF overlay cropped ('clap') twice, or after it is turned or mirrored, is not composed here"
            )
        }
        guard let tiles = meta.withoutReferences(showing: tileIDs[0], unhiding: Set(tileIDs)) else {
            throw .unreadable(.corrupt, "the HEIF overlay's first image has an id 'pitm' cannot hold")
        }
        self.width = width
        self.height = height
        self.fill = fill
        self.placements = placements
        self.tiles = tiles
        item = meta.primary
        hasCleanAperture = transformations.first == "clap"
        orientation = try Turn(properties).exifOrientation
    }

    private static func signed(_ value: Int, bytes: Int) -> Int {
        let bits = bytes * 8
        return value >= 1 << (bits - 1) ? value - (1 << bits) : value
    }
}

extension HEIFOverlay {
    /// A turn of the picture as EXIF orientations count them: mirrored left to right or not, then turned
    /// clockwise by quarter turns. HEIF's `irot` and `imir` properties compose into one, in the order `ipma`
    /// lists them.
    struct Turn {
        var quarterTurns = 0
        var mirrored = false

        init(quarterTurns: Int, mirrored: Bool) {
            self.quarterTurns = quarterTurns
            self.mirrored = mirrored
        }

        /// `irot` counts anticlockwise quarter turns; `imir` mode 0 mirrors top to bottom and mode 1 left to
        /// right (ISO/IEC 23008-12 amendment 2, as libheif and Apple's encoders read it). Other properties
        /// are passed over.
        init(_ properties: [HEIFMeta.Property]) throws(VariantsError) {
            for property in properties where ["irot", "imir"].contains(property.type) {
                guard let value = property.contents.first else {
                    throw .unreadable(.corrupt, "the HEIF overlay's '\(property.type)' property is empty")
                }
                self = then(
                    property.type == "irot"
                        ? Turn(quarterTurns: (4 - Int(value & 3)) % 4, mirrored: false)
                        : Turn(quarterTurns: value & 1 == 0 ? 2 : 0, mirrored: true))
            }
        }

        /// This turn followed by `next`: a mirror reverses the direction of the turns made before it.
        func then(_ next: Turn) -> Turn {
            Turn(
                quarterTurns: (next.quarterTurns + (next.mirrored ? 4 - quarterTurns : quarterTurns)) % 4,
                mirrored: mirrored != next.mirrored)
        }

        var exifOrientation: Int {
            switch (quarterTurns, mirrored) {
            case (0, false): 1
            case (0, true): 2
            case (2, false): 3
            case (2, true): 4
            case (3, true): 5
            case (1, false): 6
            case (1, true): 7
            default: 8
            }
        }
    }
}
