import Foundation
import Testing

@testable import Variants

/// `metadata: "copyright"` end to end: a photo whose EXIF and XMP say who made it, where and with what,
/// rendered as JPEG, WebP and AVIF, each read back by exiftool.
@Suite(
    .enabled(if: ExifTool.isAvailable, "exiftool is absent (libimage-exiftool-perl; run scripts/setup.sh)"))
struct CopyrightRenditionTests {
    static let artist = "Jane Doe"
    static let copyright = "© 2026 Jane Doe"
    static let rights = "All rights reserved & licensed <by> Jane"

    /// A sample with an artist, a copyright, a rights statement, a creator, a camera and a place.
    private static func source(_ sample: String = "pictures/gradient.jpg") throws -> [UInt8] {
        try ExifTool.writing(
            [
                "-Artist=\(artist)", "-Copyright=\(copyright)", "-XMP-dc:Rights=\(rights)",
                "-XMP-dc:Creator=Someone Else", "-Make=Canon", "-Model=EOS R5", "-GPSLatitude=48.8584",
                "-GPSLatitudeRef=N", "-GPSLongitude=2.2945", "-GPSLongitudeRef=E",
            ], into: try Samples.bytes(sample), fileExtension: (sample as NSString).pathExtension)
    }

    /// Each rendition of `source` under `metadata` (nil: undeclared), by format.
    private func renditions(of source: [UInt8], metadata: String?) throws -> [String: [UInt8]] {
        let setting = metadata.map { #", "metadata": "\#($0)""# } ?? ""
        let declaration = """
            {"name": "photos", "variants": {
              "jpeg": {"width": 64, "format": "jpeg"\(setting)},
              "webp": {"width": 64, "format": "webp"\(setting)},
              "avif": {"width": 64, "format": "avif"\(setting)}}}
            """
        let bucket = try BucketDeclaration(parsing: declaration.utf8)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "variantd-store-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let store = try RenditionFolder(root: root.path)
        var timings = StageTimings()
        let metadata = try Pipeline(store: store).run(
            RenditionOrder(ObjectRequest(bucket: "photos", path: "photo.jpg"), bucket: bucket), bytes: source,
            timings: &timings)
        var stored: [String: [UInt8]] = [:]
        for (name, rendition) in try #require(metadata.renditions) {
            let bytes = try #require(store.existing(rendition.key))
            stored[name] = bytes
        }
        return stored
    }

    @Test func theSourceSaysEverything() throws {
        let tags = try ExifTool.tags(of: try Self.source(), fileExtension: "jpg")
        #expect(tags["IFD0:Artist"] == Self.artist && tags["IFD0:Make"] == "Canon")
        #expect(tags.keys.contains { $0.hasPrefix("GPS:") })
    }

    @Test(arguments: [
        "pictures/gradient.jpg", "pictures/gradient-alpha.png", "pictures/gradient.webp",
        "pictures/hopper.avif",
    ])
    func copyrightKeepsWhoMadeItAndNothingElse(sample: String) throws {
        for (format, bytes) in try renditions(of: try Self.source(sample), metadata: "copyright") {
            let tags = try ExifTool.tags(of: bytes, fileExtension: format)
            #expect(tags["IFD0:Artist"] == Self.artist, "\(sample) as \(format): \(tags)")
            #expect(tags["IFD0:Copyright"] == Self.copyright, "\(format): \(tags)")
            #expect(tags["XMP-dc:Rights"] == Self.rights, "\(format): \(tags)")
            let leaked = tags.keys.filter {
                $0.hasPrefix("GPS") || $0.hasSuffix(":Make") || $0.hasSuffix(":Model")
                    || $0.hasSuffix(":Creator")
            }
            #expect(leaked.isEmpty, "\(format) kept \(leaked)")
        }
    }

    @Test func noneKeepsNothing() throws {
        for (format, bytes) in try renditions(of: try Self.source(), metadata: "none") {
            let tags = try ExifTool.tags(of: bytes, fileExtension: format)
            let kept = tags.keys.filter { $0.hasPrefix("IFD0") || $0.hasPrefix("XMP") || $0.hasPrefix("GPS") }
            #expect(kept.isEmpty, "\(format) kept \(kept)")
            #expect(EncodedFile(bytes)?.hasMetadata == false, "\(format)")
        }
    }

    /// A source without rights writes no metadata block even where they are kept, and `none` makes the very
    /// bytes an undeclared `metadata` does.
    @Test func keptOnlyWhenThereIsSomethingToKeep() throws {
        let plain = try Samples.bytes("pictures/gradient.jpg")
        for (format, bytes) in try renditions(of: plain, metadata: "copyright") {
            #expect(EncodedFile(bytes)?.hasMetadata == false, "\(format)")
        }
        let source = try Self.source()
        #expect(try renditions(of: source, metadata: "none") == renditions(of: source, metadata: nil))
    }
}
