import Testing

@testable import Variants

@Suite struct SnifferTests {
    private func ftyp(_ major: String, _ compatible: [String]) -> ArraySlice<UInt8> {
        let brands = [major, "\0\0\0\0"] + compatible
        let body = Array("ftyp".utf8) + brands.flatMap { Array($0.utf8) }
        let size = body.count + 4
        return ([0, 0, UInt8(size >> 8), UInt8(size & 0xFF)] + body)[...]
    }

    @Test(
        arguments: [
            ([0xFF, 0xD8, 0xFF, 0xE0], MediaType.jpeg),
            ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0], .png),
            (Array("GIF89a\u{1}\u{0}".utf8), .gif),
            (Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8), .webp),
            (Array("%PDF-1.7\n".utf8), .pdf),
            ([0x50, 0x4B, 0x03, 0x04, 0x14, 0], .zip),
            ([0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0], .tiff),
            (Array("<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8), .svg),
            (Array("  {\"a\": 1}".utf8), .json),
            (Array("hello, world\n".utf8), .text),
        ] as [([UInt8], MediaType)])
    func recognisesSignatures(bytes: [UInt8], expected: MediaType) {
        #expect(Sniffer.sniff(bytes[...]) == expected)
    }

    @Test(arguments: [
        ("heic", ["mif1", "heic"], MediaType.heic),
        ("heix", ["mif1"], .heic),
        ("hevc", [], .heic),
        ("mif1", ["heic", "mif1"], .heif),
        ("mif1", ["mif1", "avif"], .avif),
        ("avif", ["avif", "mif1", "miaf"], .avif),
        ("avis", ["avis", "msf1"], .avifSequence),
        ("msf1", ["msf1", "hevc"], .heifSequence),
        ("isom", ["isom", "mp41"], .mp4),
        ("qt  ", [], .quickTime),
        ("M4V ", ["M4V ", "M4A ", "mp42", "isom"], .mp4),
        ("j2ki", ["j2ki"], .isoMedia),
    ])
    func readsMajorAndCompatibleBrands(major: String, compatible: [String], expected: MediaType) {
        #expect(Sniffer.sniff(ftyp(major, compatible)) == expected)
    }

    /// An EBML header is WebM or Matroska by its `DocType`; another document type proves nothing.
    @Test(arguments: [("webm", MediaType.webm), ("matroska", .matroska), ("other", nil)])
    func readsTheEBMLDocType(docType: String, expected: MediaType?) {
        let element = [0x42, 0x82, 0x80 | UInt8(docType.utf8.count)] + Array(docType.utf8)
        let header: [UInt8] = [
            0x1A, 0x45, 0xDF, 0xA3, 0x80 | UInt8(element.count + 4), 0x42, 0x86, 0x81, 0x01,
        ]
        #expect(Sniffer.sniff((header + element)[...]) == expected)
    }

    @Test func needsTheWholePNGSignature() {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        #expect(Sniffer.sniff(signature[...]) == .png)
        #expect(Sniffer.sniff(signature.dropLast()) != .png)
    }

    @Test func binaryNoiseProvesNothing() {
        #expect(Sniffer.sniff([0x00, 0x13, 0x37, 0xFE, 0x80, 0x01][...]) == nil)
        #expect(Sniffer.sniff([][...]) == nil)
    }

    @Test func bytesOutrankTheDeclaredTypeAndTheName() {
        let type = Sniffer.resolve(sniffed: .png, declared: "image/jpeg", fileName: "photo.jpg")
        #expect(type == .png)
    }

    @Test func declaredTypeThenExtensionWhenTheBytesCannotSay() {
        #expect(Sniffer.resolve(sniffed: nil, declared: "image/webp; q=1", fileName: "a.png") == .webp)
        #expect(
            Sniffer.resolve(sniffed: nil, declared: "application/octet-stream", fileName: "a.PNG") == .png)
        #expect(Sniffer.resolve(sniffed: nil, declared: nil, fileName: "dir.v2/archive") == .octetStream)
    }

    @Test func textKeepsItsFinerNameFromTheExtension() {
        #expect(Sniffer.resolve(sniffed: .text, declared: nil, fileName: "sizes.csv") == .csv)
        #expect(Sniffer.resolve(sniffed: .text, declared: nil, fileName: "photo.jpg") == .text)
    }
}
