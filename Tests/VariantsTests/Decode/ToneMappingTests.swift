import Foundation
import Testing
import VariantdTestSupport

@testable import Variants

/// PQ and HLG pictures are tone-mapped to SDR sRGB (BT.2390's EETF, reference white 203 cd/m²) rather than
/// clipped. The samples in `Samples/pictures/hdr` are 10-bit grey and colour patches of known light (how they were made:
/// `Samples/generators/hdr/README.md`); the expected levels were worked out from the operator's published formulas,
/// independently of this code.
@Suite struct ToneMappingTests {
    private let pipeline: Pipeline
    private let store: RenditionFolder
    private let bucket: BucketDeclaration

    init() throws {
        let look = try LookPipeline(side: 512)
        (store, pipeline, bucket) = (look.store, look.pipeline, look.bucket)
    }

    /// The grey patches of `pq-patches`, in cd/m², and the first row's levels once mapped: the picture's
    /// peak is 10,000 cd/m², so reference white sits at 195 and highlights stay apart up to 4,000 cd/m².
    static let pqNits = [0, 1, 10, 50, 100, 203, 400, 1000, 2000, 4000, 6000, 10000]
    static let pqExpected = [0, 15, 63, 131, 164, 195, 219, 241, 250, 254, 255, 255]

    @Test(arguments: ["pq-patches.avif", "pq-patches.heic"])
    func pqGreyPatchesMapToKnownLevels(file: String) throws {
        let (metadata, pixels) = try render("pictures/hdr/\(file)")
        #expect(metadata.toneMapped == "pq")
        #expect(metadata.width == 192 && metadata.height == 32)
        let greys = (0..<12).map { pixels.at(x: $0 * 16 + 8, y: 8) }
        for (index, grey) in greys.enumerated() {
            #expect(abs(grey.r - Self.pqExpected[index]) <= 3, "\(Self.pqNits[index]) cd/m²: \(grey)")
            #expect(abs(grey.r - grey.g) <= 2 && abs(grey.g - grey.b) <= 2, "grey stays grey: \(grey)")
        }
        // Nothing is clipped below the peak: every step of light up to 4,000 cd/m² stays a brighter grey.
        for index in 1..<10 { #expect(greys[index].r > greys[index - 1].r, "\(Self.pqNits[index]) cd/m²") }
    }

    /// A PQ picture whose brightest part is reference white keeps its levels up to white: 203 cd/m² is 255,
    /// 100 cd/m² half the light (186).
    @Test func pqReferenceWhiteIsSDRWhiteWhenNothingIsBrighter() throws {
        let (_, pixels) = try render("pictures/hdr/pq-to-203.avif")
        let expected = [0, 15, 63, 136, 186, 255]
        for (index, level) in expected.enumerated() {
            #expect(abs(pixels.at(x: index * 16 + 8, y: 8).r - level) <= 3, "patch \(index)")
        }
    }

    /// Colours keep their hue: BT.2020 primaries at 100 cd/m² land on sRGB's (clipped, being outside it), and
    /// a 1000 cd/m² red is brighter than a 100 cd/m² one, not a clipped copy of it.
    @Test func pqColoursKeepTheirHue() throws {
        let (_, pixels) = try render("pictures/hdr/pq-patches.avif")
        let red = pixels.at(x: 8, y: 24)
        let green = pixels.at(x: 24, y: 24)
        let blue = pixels.at(x: 40, y: 24)
        let brightRed = pixels.at(x: 72, y: 24)
        #expect(red.r > 150 && red.g < 40 && red.b < 40, "\(red)")
        #expect(green.g > 150 && green.r < 40 && green.b < 80, "\(green)")
        #expect(blue.b > 150 && blue.r < 40 && blue.g < 60, "\(blue)")
        #expect(brightRed.r > red.r && brightRed.g < 40, "\(brightRed) against \(red)")
    }

    /// HLG grey signal levels through the inverse OETF and the OOTF of a 1000 cd/m² display: 0.75 is reference
    /// white (203 cd/m²), 1.0 the display's peak.
    @Test func hlgGreyPatchesMapToKnownLevels() throws {
        let (metadata, pixels) = try render("pictures/hdr/hlg-patches.avif")
        #expect(metadata.toneMapped == "hlg")
        let expected = [0, 16, 61, 137, 173, 229, 253, 255]
        for (index, level) in expected.enumerated() {
            let grey = pixels.at(x: index * 16 + 8, y: 8)
            #expect(abs(grey.r - level) <= 3, "patch \(index): \(grey)")
        }
    }

    /// SDR pictures are not touched: an AVIF whose `nclx` says sRGB, and a HEIF without `nclx`.
    @Test func sdrPicturesAreNotToneMapped() throws {
        #expect(try render("pictures/hopper.avif").metadata.toneMapped == nil)
        #expect(try render("pictures/rgb-29x100.heif").metadata.toneMapped == nil)
    }

    @Test func curvesAgreeWithTheirPublishedPoints() {
        #expect(abs(ToneMapping.pqToNits(ToneMapping.nitsToPQ(203)) - 203) < 0.01)
        #expect(abs(ToneMapping.nitsToPQ(10_000) - 1) < 1e-9)
        #expect(abs(ToneMapping.nitsToPQ(100) - 0.508) < 0.001)  // ST 2084: 100 cd/m² is 50.8 % signal
        // HLG 75 % is 203 cd/m² on a 1000 cd/m² display (BT.2408): scene light ^ 1.2 × 1000.
        #expect(abs(pow(ToneMapping.hlgInverseOETF(0.75), 1.2) * 1000 - 203) < 1)
        // The EETF leaves light below its knee alone, brings the peak to reference white, and never reverses.
        #expect(abs(ToneMapping.eetf(20, peak: 1000) - 20) < 0.01)
        #expect(abs(ToneMapping.eetf(1000, peak: 1000) - 203) < 0.5)
        let mapped = stride(from: 0.0, through: 4000, by: 50).map { ToneMapping.eetf($0, peak: 4000) }
        #expect(zip(mapped, mapped.dropFirst()).allSatisfy { $0 < $1 })
    }

    @Test func onlyPQAndHLGAreToneMapped() {
        let bt2020 = [0.3127, 0.329, 0.708, 0.292, 0.17, 0.797, 0.131, 0.046]
        #expect(ToneMapping(nclx: .init(primaries: 9, transfer: 16, chromaticities: bt2020))?.transfer == .pq)
        #expect(
            ToneMapping(nclx: .init(primaries: 9, transfer: 18, chromaticities: bt2020))?.transfer == .hlg)
        #expect(ToneMapping(nclx: .init(primaries: 9, transfer: 14, chromaticities: bt2020)) == nil)
        #expect(ToneMapping(nclx: .init(primaries: 1, transfer: 13, chromaticities: [])) == nil)
        // BT.709 primaries: the matrix to sRGB is the identity.
        let identity = ToneMapping(nclx: .init(primaries: 1, transfer: 16, chromaticities: []))?.matrix ?? []
        #expect(zip(identity, [1, 0, 0, 0, 1, 0, 0, 0, 1] as [Float]).allSatisfy { abs($0 - $1) < 0.001 })
    }

    // MARK: - JPEG XL

    static let cjxl = "/usr/bin/cjxl"

    /// The colour patches of `pq-patches`' second row, R, G and B in cd/m².
    static let pqColours: [[Double]] = [
        [100, 0, 0], [0, 100, 0], [0, 0, 100], [203, 100, 50], [1000, 0, 0], [0, 1000, 0], [0, 0, 1000],
        [1000, 500, 100], [50, 203, 203], [4000, 4000, 0], [203, 203, 203], [10000, 10000, 10000],
    ]

    /// `pq-patches`' light as a 16-bit PQ JPEG XL (cjxl, lossless and lossy) maps as the AVIF does: the greys
    /// to the expected levels, and every patch, greys and colours, within a level of the AVIF's rendition
    /// (whose samples are 10-bit) when lossless, within 3 when lossy.
    @Test(.enabled(if: ReferenceRender.has(cjxl), "cjxl (libjxl-tools) is absent"), arguments: [0.0, 0.5])
    func pqJPEGXLMapsAsHEIFDoes(distance: Double) throws {
        let light = Self.pqNits.map { [Double($0), Double($0), Double($0)] } + Self.pqColours
        let jxl = try Self.jpegXL(
            patches: light.map { $0.map(ToneMapping.nitsToPQ) }, columns: 12, encoding: "RGB_D65_202_Rel_PeQ",
            distance: distance)
        let (metadata, pixels) = try render(jxl, path: "pq.jxl")
        #expect(metadata.toneMapped == "pq")
        #expect(metadata.width == 192 && metadata.height == 32)
        for (index, level) in Self.pqExpected.enumerated() {
            #expect(abs(pixels.at(x: index * 16 + 8, y: 8).r - level) <= 3, "\(Self.pqNits[index]) cd/m²")
        }
        let (_, avif) = try render("pictures/hdr/pq-patches.avif")
        let tolerance = distance == 0 ? 1 : 3
        for index in 0..<24 {
            let (x, y) = (index % 12 * 16 + 8, index / 12 * 16 + 8)
            let (got, expected) = (pixels.at(x: x, y: y), avif.at(x: x, y: y))
            #expect(
                abs(got.r - expected.r) <= tolerance && abs(got.g - expected.g) <= tolerance
                    && abs(got.b - expected.b) <= tolerance,
                "\(light[index]) cd/m²: \(got) against the AVIF's \(expected)")
        }
    }

    /// `hlg-patches`' grey signal levels as a 16-bit HLG JPEG XL come out at the levels the AVIF's do.
    @Test(.enabled(if: ReferenceRender.has(cjxl), "cjxl (libjxl-tools) is absent"))
    func hlgJPEGXLMapsAsHEIFDoes() throws {
        let signals = [0, 0.1, 0.25, 0.5, 0.6, 0.75, 0.9, 1.0]
        let jxl = try Self.jpegXL(
            patches: signals.map { [$0, $0, $0] }, columns: 8, encoding: "RGB_D65_202_Rel_HLG", distance: 0)
        let (metadata, pixels) = try render(jxl, path: "hlg.jxl")
        #expect(metadata.toneMapped == "hlg")
        let expected = [0, 16, 61, 137, 173, 229, 253, 255]
        for (index, level) in expected.enumerated() {
            let grey = pixels.at(x: index * 16 + 8, y: 8)
            #expect(
                abs(grey.r - level) <= 3 && grey.r == grey.g && grey.g == grey.b, "patch \(index): \(grey)")
        }
    }

    /// An SDR JPEG XL (cjxl's default sRGB encoding, and the gradient sample) is read as before, not mapped.
    @Test(.enabled(if: ReferenceRender.has(cjxl), "cjxl (libjxl-tools) is absent"))
    func sdrJPEGXLIsNotToneMapped() throws {
        let jxl = try Self.jpegXL(patches: [[0.5, 0.5, 0.5]], columns: 1, encoding: nil, distance: 0)
        #expect(try render(jxl, path: "sdr.jxl").metadata.toneMapped == nil)
        #expect(try render("documents/gradient.jxl").metadata.toneMapped == nil)
    }

    /// libjxl names the colour encoding of the profile it synthesises; that name is read as code points.
    @Test(.enabled(if: ReferenceRender.has(cjxl), "cjxl (libjxl-tools) is absent"))
    func libjxlProfileStatesItsCodePoints() throws {
        let jxl = try Self.jpegXL(
            patches: [[0.5, 0.5, 0.5]], columns: 1, encoding: "RGB_D65_DCI_Rel_HLG", distance: 0)
        let profile = try #require(try VipsImage.load(.jxl, bytes: jxl).iccProfile.flatMap(ICCProfile.init))
        #expect(
            profile.codePoints
                == .init(
                    primaries: 12, transfer: 18,
                    chromaticities: [0.3127, 0.3290, 0.680, 0.320, 0.265, 0.690, 0.150, 0.060]))
    }

    /// A JPEG XL of 16 × 16 patches, `columns` a row, each an RGB signal in [0, 1] stored at 16 bits, made by
    /// cjxl from a PPM with the colour encoding named as libjxl names it (nil: cjxl's default, sRGB).
    private static func jpegXL(patches: [[Double]], columns: Int, encoding: String?, distance: Double)
        throws -> [UInt8]
    {
        let (width, height) = (columns * 16, (patches.count + columns - 1) / columns * 16)
        var ppm = Array("P6\n\(width) \(height)\n65535\n".utf8)
        for y in 0..<height {
            for x in 0..<width {
                for signal in patches[min(patches.count - 1, y / 16 * columns + x / 16)] {
                    let code = UInt16((min(1, max(0, signal)) * 65535).rounded())
                    ppm += [UInt8(code >> 8), UInt8(code & 0xFF)]
                }
            }
        }
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (input, output) = (
            folder.appendingPathComponent("in.ppm"), folder.appendingPathComponent("out.jxl")
        )
        try Data(ppm).write(to: input)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: cjxl)
        process.arguments =
            [input.path, output.path, "-d", "\(distance)"]
            + (encoding.map { ["-x", "color_space=\($0)"] } ?? [])
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "cjxl failed")
        return [UInt8](try Data(contentsOf: output))
    }

    // MARK: - Helpers

    private struct Pixels {
        let bytes: [UInt8]
        let width: Int
        let bands: Int

        func at(x: Int, y: Int) -> (r: Int, g: Int, b: Int) {
            let at = (y * width + x) * bands
            return (Int(bytes[at]), Int(bytes[at + 1]), Int(bytes[at + 2]))
        }
    }

    private func render(_ sample: String) throws -> (metadata: CompletionMetadata, pixels: Pixels) {
        try render(try Samples.bytes(sample), path: sample)
    }

    private func render(_ bytes: [UInt8], path: String) throws -> (
        metadata: CompletionMetadata, pixels: Pixels
    ) {
        var timings = StageTimings()
        let metadata = try pipeline.run(
            RenditionOrder(ObjectRequest(bucket: "h", path: path), bucket: bucket), bytes: bytes,
            timings: &timings)
        let rendition = try #require(metadata.renditions?["look"])
        let image = try VipsImage.load(.png, bytes: try #require(store.existing(rendition.key)))
        return (
            metadata, Pixels(bytes: try image.pixelBytes(), width: image.width, bands: image.header.bands)
        )
    }
}
