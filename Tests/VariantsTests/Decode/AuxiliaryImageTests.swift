import Foundation
import Testing

@testable import Variants

/// Pictures that carry a second image — an Ultra HDR gain map, a portrait-mode depth map, a Samsung auxiliary
/// image — render their primary (SDR) picture: its displayed size, and colour, where a gain or depth map is a
/// smaller grey plane.
@Suite struct AuxiliaryImageTests {
    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: ColourConversionTests.corpus.path),
            "../shared/corpus is absent"),
        arguments: [
            ("formats/jpeg-special/ultra-hdr.jpg", 3840, 2160), ("photos/heic/pug.heic", 4032, 3024),
            ("photos/heic/Samsung_Galaxy_S25_Ultra_aux.heic", 4000, 1848),
        ])
    func primaryPictureIsRendered(path: String, width: Int, height: Int) throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "variantd-aux-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let store = try RenditionFolder(root: root.path)
        let bucket = try BucketDeclaration(
            parsing: Data(
                #"{"name":"a","variants":{"look":{"width":128,"height":128,"fit":"inside","format":"png"}}}"#
                    .utf8))
        let bytes = [UInt8](try Data(contentsOf: ColourConversionTests.corpus.appendingPathComponent(path)))
        var timings = StageTimings()
        let metadata = try Pipeline(store: store).run(
            RenditionOrder(ObjectRequest(bucket: "a", path: path), bucket: bucket), bytes: bytes,
            timings: &timings)
        #expect(metadata.width == width && metadata.height == height)
        let key = try #require(metadata.renditions?["look"]?.key)
        let pixels = try VipsImage.load(.png, bytes: try #require(store.existing(key))).pixelBytes()
        var chroma = 0
        for index in stride(from: 0, to: pixels.count - 2, by: 3) {
            let (red, green, blue) = (Int(pixels[index]), Int(pixels[index + 1]), Int(pixels[index + 2]))
            chroma += abs(red - green) + abs(green - blue)
        }
        #expect(
            Double(chroma) / Double(pixels.count / 3) > 4, "\(path) renders grey, like a gain or depth map")
    }
}
