import Foundation
import Testing

@testable import Variants

/// The tile-by-tile reduced decode must show the same picture as libheif's whole decode: same size, tiles in
/// their places (rotated and mirrored grids included), colours within a perceptual bound.
@Suite struct HeifTileReductionTests {
    static let photos = Samples.root.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("shared/corpus/photos/heic")

    /// Every phone HEIC but the 200-megapixel one, whose whole decode alone needs about 1 GB.
    static let files: [String] =
        ((try? FileManager.default.contentsOfDirectory(atPath: photos.path)) ?? [])
        .filter { !$0.contains("200MP") }.sorted()

    private static let limits = HeifContainer.Limits(
        maxPixels: Limits.default.maxPixels, maxMemoryBlock: Limits.default.maxHEIFMemoryBlock,
        maxItems: Limits.default.maxHEIFItems, maxTiles: Limits.default.maxHEIFItems, threads: 2)

    /// 2 takes the integer pass over whole 4:2:0 blocks (a 12 MP photo rendered at 1600 px), 4 the general one.
    @Test(.enabled(if: !files.isEmpty, "../shared/corpus/photos is absent"), arguments: files, [2, 4])
    func reducedDecodeShowsTheWholePicture(file: String, factor: Int) throws {
        try Vips.start()
        let bytes = [UInt8](try Data(contentsOf: Self.photos.appendingPathComponent(file)))
        let container = try HeifContainer(bytes: bytes, limits: Self.limits)
        let tiling = try container.tiling()
        try #require(tiling.columns * tiling.rows > 1, "\(file) is not a grid")
        let reduced = try container.decodeReduced(factor: factor, threads: 2)
        #expect(reduced.width == (container.info.width + factor - 1) / factor)
        #expect(reduced.height == (container.info.height + factor - 1) / factor)
        let whole = try container.decode()
        #expect(whole.width == container.info.width && whole.height == container.info.height)
        let size = (width: container.info.width / 8, height: container.info.height / 8)
        let distance = try Perceptual.distance(
            whole.resized(toWidth: size.width, height: size.height),
            reduced.resized(toWidth: size.width, height: size.height))
        #expect(distance < 0.01, "\(file) at 1/\(factor): mean difference \(distance)")
    }
}
