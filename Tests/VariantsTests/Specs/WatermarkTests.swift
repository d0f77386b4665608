import Testing

@testable import Variants

/// A bucket's watermarks as declared and named: the file checked at load, the spec key following the file's
/// bytes, an unknown name refused with its own code.
@Suite struct WatermarkTests {
    private static let red = SolidPNG.make(width: 8, height: 8, rgba: [255, 0, 0, 255])
    private static let green = SolidPNG.make(width: 8, height: 8, rgba: [0, 255, 0, 255])

    private static func bucket(
        watermark: String = #""file": "logo.png""#, name: String = "logo", png: [UInt8] = red,
        variant: String = #""watermark": "logo""#
    ) throws(VariantsError) -> BucketDeclaration {
        let declaration = """
            {"name": "b", "watermarks": {"\(name)": {\(watermark)}},
             "variants": {"v": {"width": 100, \(variant)}}}
            """
        return try BucketDeclaration(parsing: declaration.utf8) { (_) throws(VariantsError) in png }
    }

    private static func key(_ bucket: BucketDeclaration) throws -> String {
        RenditionKey.specKey(of: try #require(bucket.variant(named: "v")))
    }

    /// Another file makes other renditions; another name for the same file and settings does not.
    @Test func theKeyFollowsTheFileNotTheName() throws {
        let plain = try Self.key(Self.bucket())
        #expect(try Self.key(Self.bucket(png: Self.green)) != plain)
        #expect(try Self.key(Self.bucket(name: "mark", variant: #""watermark": "mark""#)) == plain)
        #expect(try Self.key(Self.bucket(variant: #""format": "jpeg""#)) != plain)
        #expect(try Self.key(Self.bucket(watermark: #""file": "logo.png", "opacity": 0.5"#)) != plain)
        let spec = try #require(try Self.bucket().variant(named: "v"))
        #expect(spec.canonicalJSON.contains(SHA256.hex(Self.red)))
    }

    @Test func defaultsAreSpelledOutAlike() throws {
        let spelled =
            #""file": "logo.png", "position": "southeast", "margin": 0, "opacity": 1, "width": 0.25"#
        #expect(try Self.key(Self.bucket()) == Self.key(Self.bucket(watermark: spelled)))
    }

    @Test func aTransformNamesOne() throws {
        let bucket = try Self.bucket()
        let transform = try Transform(
            query: [("width", "100"), ("watermark", "logo")], accept: nil, watermarks: bucket.watermarks)
        #expect(RenditionKey.specKey(of: transform.spec) == (try Self.key(bucket)))
        #expect(transform.spec.watermark?.checksum == SHA256.hex(Self.red))
    }

    @Test func anUnknownNameIsItsOwn400() throws {
        let error = #expect(throws: VariantsError.self) {
            try Transform(query: [("width", "100"), ("watermark", "nope")], accept: nil, watermarks: [])
        }
        #expect(error?.code == .unknownWatermark && error?.statusCode == 400)
        #expect(error?.message == #"watermark: expected a watermark the bucket declares (none), got "nope""#)
        let declared = #expect(throws: VariantsError.self) {
            try Self.bucket(variant: #""watermark": "nope""#)
        }
        #expect(declared?.code == .unknownWatermark)
        #expect(declared?.message.contains("(logo)") == true)
    }

    @Test(arguments: [
        (#""file": "../logo.png""#, "watermarks.logo.file: expected a PNG's path relative"),
        (#""file": "/etc/logo.png""#, "watermarks.logo.file: expected a PNG's path relative"),
        (
            #""file": "logo.png", "position": "entropy""#,
            "watermarks.logo.position: expected one of centre, north"
        ),
        (#""file": "logo.png", "width": 0"#, "watermarks.logo.width: expected number in 0…1 above 0"),
        (#""file": "logo.png", "opacity": 1.5"#, "watermarks.logo.opacity: expected number in 0…1"),
        (#""file": "logo.png", "margin": -1"#, "watermarks.logo.margin: expected integer in 0…1000"),
        (#""position": "north""#, "watermarks.logo.file: expected a PNG's path, got nothing"),
    ])
    func refusesASettingOutOfItsRule(watermark: String, message: String) {
        let error = #expect(throws: VariantsError.self) { try Self.bucket(watermark: watermark) }
        #expect(error?.code == .invalidTransform)
        #expect(error?.message.hasPrefix(message) == true, "\(error?.message ?? "")")
    }

    @Test func refusesAFileThatIsNotAWholePNG() {
        var corrupt = Self.red
        corrupt[30] ^= 0xFF
        let cases: [([UInt8], String)] = [
            (Array("GIF89a not a png at all, not at all".utf8), "expected a PNG file"),
            (corrupt, "expected a whole PNG"),
            (Array(Self.red.prefix(40)), "expected a whole PNG"),
            (
                SolidPNG.make(width: 2049, height: 1, rgba: [0, 0, 0, 0]),
                "expected a PNG of at most 2048 pixels"
            ),
            ([UInt8](repeating: 0, count: Watermark.maximumFileBytes + 1), "expected a PNG of at most"),
        ]
        for (png, message) in cases {
            let error = #expect(throws: VariantsError.self) { try Self.bucket(png: png) }
            #expect(
                error?.message.hasPrefix("watermarks.logo.file: " + message) == true,
                "\(error?.message ?? "")")
        }
    }

    /// A declaration with no folder (a job's inline policy) has no file to read a watermark from.
    @Test func needsAFolder() {
        let declaration = #"{"name": "b", "watermarks": {"logo": {"file": "logo.png"}}}"#
        let error = #expect(throws: VariantsError.self) { try BucketDeclaration(parsing: declaration.utf8) }
        #expect(error?.message.hasPrefix("watermarks.logo: expected a declaration read from a file") == true)
    }
}
