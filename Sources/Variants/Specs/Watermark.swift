/// A named overlay a bucket declares (`"watermarks": {"logo": {"file": "logo.png", …}}`) and a variant or a
/// transform names (`watermark=logo`): a PNG placed on every rendition that names it.
///
/// Made only by the declaration's reader from the file's bytes, which it checks without decoding them (a PNG
/// signature, a header within `maximumSide`, every chunk whole and its CRC right, at most `maximumFileBytes`);
/// the pixels are decoded in the decoder child, under its limits, like any picture.
public struct Watermark: Sendable, Equatable, Hashable {
    /// 1…64 characters of `A-Z a-z 0-9 _ -`, as a variant's name.
    public let name: String
    /// The PNG's path under the declarations' folder, as declared.
    public let file: String
    /// A compass point or `centre`: which edge or corner of the rendition the overlay sits against.
    public let position: Position
    /// Output pixels between the overlay and the edges it sits against (none for `centre`).
    public let margin: Int
    /// 0…1: the overlay's alpha is multiplied by it.
    public let opacity: Double
    /// The overlay's width as a fraction of the rendition's, in (0, 1]; its height follows its aspect ratio,
    /// and it shrinks further if it would not fit inside the margins.
    public let width: Double
    /// The PNG's lower-case hex SHA-256: changing the file changes every key of a rendition that uses it.
    public let checksum: String
    /// The PNG's own size, read from its header.
    public let pixelWidth: Int
    public let pixelHeight: Int
    /// The file's bytes, handed to the decoder child with the order.
    let png: [UInt8]

    /// The largest file a watermark may be: it travels with every order that uses it.
    public static let maximumFileBytes = 256 << 10
    /// The longest side a watermark's PNG may declare.
    public static let maximumSide = 2048
    static let margins = 0...1000
    /// The positions an overlay takes: `entropy` and `attention` choose crops, not corners.
    static let positions = Position.allCases.filter { $0 != .entropy && $0 != .attention }

    /// Checks `png` as a watermark's file; `fail` says what was wrong in the declaration's words.
    init(
        name: String, file: String, position: Position, margin: Int, opacity: Double, width: Double,
        png: [UInt8], fail: (String) -> VariantsError
    ) throws(VariantsError) {
        precondition(Self.positions.contains(position) && Self.margins.contains(margin))
        precondition((0...1).contains(opacity) && width > 0 && width <= 1)
        guard png.count <= Self.maximumFileBytes else {
            throw fail("a PNG of at most \(Self.maximumFileBytes) bytes, got \(png.count) bytes")
        }
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard png.count >= 24, png.starts(with: signature), png[12..<16].elementsEqual("IHDR".utf8) else {
            throw fail("a PNG file")
        }
        func u32(_ at: Int) -> Int { png[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        let (pixelWidth, pixelHeight) = (u32(16), u32(20))
        let sides = 1...Self.maximumSide
        guard sides.contains(pixelWidth), sides.contains(pixelHeight) else {
            throw fail("a PNG of at most \(Self.maximumSide) pixels a side, got \(pixelWidth)×\(pixelHeight)")
        }
        guard !ContainerCheck.isTruncated(png, as: .png), !ContainerCheck.hasBadChecksum(png, as: .png) else {
            throw fail("a whole PNG, every chunk's CRC right")
        }
        self.name = name
        self.file = file
        self.position = position
        self.margin = margin
        self.opacity = opacity
        self.width = width
        self.png = png
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        checksum = SHA256.hex(png)
    }

    /// What keys a rendition: every setting that changes its pixels, the file by its checksum; not the name.
    var canonicalJSON: String {
        let members = [
            ("checksum", JSONValue.quote(checksum)), ("margin", String(margin)),
            ("opacity", VariantSpec.canonicalNumber(opacity)),
            ("position", JSONValue.quote(position.rawValue)),
            ("width", VariantSpec.canonicalNumber(width)),
        ]
        return "{" + members.map { JSONValue.quote($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }

    /// The settings as a declaration writes them.
    var declarationJSON: String {
        "{\"file\":\(JSONValue.quote(file)),\"position\":\(JSONValue.quote(position.rawValue)),"
            + "\"margin\":\(margin),\"opacity\":\(VariantSpec.canonicalNumber(opacity)),"
            + "\"width\":\(VariantSpec.canonicalNumber(width))}"
    }
}
