/// Finds out what bytes really are from their first bytes; the client's word and the file name are
/// only consulted when the bytes cannot say.
public enum Sniffer {
    /// How many leading bytes sniffing reads: enough for a long `ftyp` brand list and an SVG's prologue.
    public static let prefixLength = 4096

    /// The type the bytes themselves prove, or nil when they prove nothing.
    public static func sniff(_ bytes: ArraySlice<UInt8>) -> MediaType? {
        let bytes = bytes.prefix(prefixLength)
        for (type, signature) in signatures where bytes.starts(with: signature) {
            return type
        }
        if let type = programType(bytes) { return type }
        if bytes.count >= 12, bytes.starts(with: ascii("RIFF")),
            bytes.dropFirst(8).starts(with: ascii("WEBP"))
        {
            return .webp
        }
        if let type = isoMediaType(bytes) { return type }
        if let type = ebmlType(bytes) { return type }
        if isBMP(bytes) { return .bmp }
        return textType(bytes)
    }

    /// The type to report: the bytes decide; then the declared type; then the extension.
    ///
    /// Plain text is the one case where the bytes cannot tell the finer type: a `.csv` or a declared
    /// `application/json` that sniffs as text keeps the finer name.
    public static func resolve(sniffed: MediaType?, declared: String?, fileName: String?) -> MediaType {
        let hinted = hint(declared: declared, fileName: fileName)
        if sniffed == .text, let hinted, hinted.isText { return hinted }
        return sniffed ?? hinted ?? .octetStream
    }

    private static func hint(declared: String?, fileName: String?) -> MediaType? {
        if let declared, let type = MediaType(declared: declared), type != .octetStream { return type }
        if let fileName, let type = claimedByName(fileName) { return type }
        return nil
    }

    /// What the declared type or the name says, if either names a picture.
    public static func claimedPicture(declared: String?, fileName: String?) -> MediaType? {
        if let declared, let type = MediaType(declared: declared), type.isPicture { return type }
        if let fileName, let type = claimedByName(fileName), type.isPicture { return type }
        return nil
    }

    private static func claimedByName(_ fileName: String) -> MediaType? {
        let name = fileName.split(separator: "/").last.map(String.init) ?? fileName
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        return MediaType(fileExtension: String(name[name.index(after: dot)...]))
    }

    // MARK: - Signatures

    private static let signatures: [(MediaType, [UInt8])] = [
        (.jpeg, [0xFF, 0xD8, 0xFF]),
        (.png, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
        (.gif, ascii("GIF87a")),
        (.gif, ascii("GIF89a")),
        (.pdf, ascii("%PDF-")),
        (.zip, [0x50, 0x4B, 0x03, 0x04]),
        (.zip, [0x50, 0x4B, 0x05, 0x06]),
        (.tiff, [0x49, 0x49, 0x2A, 0x00]),
        (.tiff, [0x4D, 0x4D, 0x00, 0x2A]),
        (.jpegXL, [0xFF, 0x0A]),
        (.jpegXL, [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]),
        (.jpeg2000, [0, 0, 0, 0x0C, 0x6A, 0x50, 0x20, 0x20, 0x0D, 0x0A, 0x87, 0x0A]),
        (.photoshop, ascii("8BPS")),
        (.icon, [0, 0, 1, 0]),
    ]

    private static func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// BMP has only a two-byte magic, so the info-header size must be one the format defines as well.
    private static func isBMP(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard bytes.count >= 18, bytes.starts(with: ascii("BM")) else { return false }
        let start = bytes.startIndex
        let headerSize = (0..<4).reduce(0) { $0 | Int(bytes[start + 14 + $1]) << (8 * $1) }
        return [12, 40, 52, 56, 64, 108, 124].contains(headerSize)
    }

    // MARK: - ISO base media (HEIF, AVIF, MP4, QuickTime)

    /// Reads the `ftyp` box: its major brand decides, and the compatible brands when the major is generic.
    private static func isoMediaType(_ bytes: ArraySlice<UInt8>) -> MediaType? {
        guard bytes.count >= 12, bytes.dropFirst(4).starts(with: ascii("ftyp")) else { return nil }
        let start = bytes.startIndex
        let boxSize = (0..<4).reduce(0) { $0 << 8 | Int(bytes[start + $1]) }
        let end = min(bytes.count, max(boxSize, 12))
        let major = brand(bytes, at: 8)
        let compatible = stride(from: 16, to: end - 3, by: 4).map { brand(bytes, at: $0) }

        if let type = brandTypes[major] { return type }
        if ["mif1", "mif2"].contains(major) {
            return compatible.contains("avif") && !compatible.contains("heic") ? .avif : .heif
        }
        if major == "msf1" { return compatible.contains("avis") ? .avifSequence : .heifSequence }
        if major == "qt  " { return .quickTime }
        if compatible.contains(where: { heicBrands.contains($0) || $0 == "mif1" }) { return .heif }
        if compatible.contains("avif") { return .avif }
        if videoBrands.contains(major) { return .mp4 }
        return .isoMedia
    }

    private static let heicBrands: Set<String> = ["heic", "heix", "hevc", "hevx", "heim", "heis"]
    private static let videoBrands: Set<String> = [
        "isom", "iso2", "iso4", "iso5", "iso6", "mp41", "mp42", "avc1", "dash", "M4V ",
    ]

    private static let brandTypes: [String: MediaType] = {
        var types: [String: MediaType] = ["avif": .avif, "avis": .avifSequence, "hevs": .heifSequence]
        for brand in heicBrands { types[brand] = .heic }
        return types
    }()

    private static func brand(_ bytes: ArraySlice<UInt8>, at offset: Int) -> String {
        let start = bytes.startIndex + offset
        return String(decoding: bytes[start..<start + 4], as: UTF8.self)
    }

    // MARK: - EBML (WebM, Matroska)

    /// An EBML header whose `DocType` element (ID 0x4282, its size in one byte) says `webm` or `matroska`.
    private static func ebmlType(_ bytes: ArraySlice<UInt8>) -> MediaType? {
        guard bytes.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) else { return nil }
        let header = Array(bytes.prefix(64))
        for offset in 4..<max(4, header.count - 3)
        where header[offset] == 0x42 && header[offset + 1] == 0x82 && header[offset + 2] & 0x80 != 0 {
            let end = offset + 3 + Int(header[offset + 2] & 0x7F)
            guard end <= header.count else { return nil }
            switch String(decoding: header[(offset + 3)..<end], as: UTF8.self) {
            case "webm": return .webm
            case "matroska": return .matroska
            default: return nil
            }
        }
        return nil
    }

    // MARK: - Text

    /// SVG, JSON or plain text, when the prefix is UTF-8 without control bytes.
    private static func textType(_ bytes: ArraySlice<UInt8>) -> MediaType? {
        var body = bytes
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        guard !body.isEmpty,
            !body.contains(where: { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D && $0 != 0x0C }),
            isValidUTF8(body)
        else { return nil }
        let text = String(decoding: body, as: UTF8.self)
        let trimmed = text.drop { $0.isWhitespace }
        if trimmed.hasPrefix("<svg") || (trimmed.hasPrefix("<?xml") && text.contains("<svg")) { return .svg }
        if trimmed.hasPrefix("{") || trimmed.hasPrefix("[") { return .json }
        return .text
    }

    /// Valid UTF-8, allowing one character cut in two by the end of the prefix.
    private static func isValidUTF8(_ bytes: ArraySlice<UInt8>) -> Bool {
        let cut = bytes.count == prefixLength ? 3 : 0
        return (0...cut).contains { String(validating: bytes.dropLast($0), as: UTF8.self) != nil }
    }
}
