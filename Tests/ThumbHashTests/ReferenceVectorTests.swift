import Testing
import ThumbHash

/// Hashes and decodes compared with what the JavaScript reference computed for the same input.
@Suite struct ReferenceVectorTests {
    @Test(arguments: GoldenImage.vectors.indices)
    func encodeMatchesReference(index: Int) throws {
        let vector = GoldenImage.vectors[index]
        let pixels = vector.image.pixels(width: vector.width, height: vector.height)
        let hash = try ThumbHash.encode(width: vector.width, height: vector.height, rgba: pixels)
        #expect(hash.base64 == vector.hash)
    }

    typealias Decode = (hash: String, width: Int, height: Int, average: [Double], ratio: Double, sum: Int)

    /// Size, average colour, aspect ratio and a byte checksum of the decode, from `oracle.py decode`.
    static let decodes: [Decode] = [
        (
            "Hcs6zzII9wiIh4hwj3CI+AiIgIAICIgA", 32, 32,
            [0.7910052910052909, 0.3941798941798942, 0.1957671957671958, 1], 1, 575_050
        ),
        (
            "HwiGHQwHcHZwd3dnd4CACPeHJihndWBRBw==", 32, 32,
            [0.5052910052910051, 0.4894179894179893, 0.4814814814814815, 0.4666666666666667], 1, 505_794
        ),
        (
            "XggOJBpwBnd3h3Z4d3iwkAv4eA==", 18, 32,
            [0.4999999999999999, 0.4841269841269841, 0.44444444444444436, 1], 0.5714285714285714, 355_479
        ),
        (
            "nviFE44HcHZwd3ewkAv3eId3ZnZ3B4Y=", 32, 19,
            [0.4947089947089946, 0.5105820105820105, 0.4232804232804233, 0.4666666666666667],
            1.6666666666666667, 292_919
        ),
        (
            "1QuoA38ACIh4iAgIiHePiAj3go2H2Ag=", 19, 32,
            [0, 0.9973544973544973, 0.005291005291005291, 0], 0.6, 154_610
        ),
    ]

    @Test(arguments: decodes.indices)
    func decodeMatchesReference(index: Int) throws {
        let expected = Self.decodes[index]
        let hash = try ThumbHash(base64: expected.hash)
        let image = hash.decode()
        #expect(image.width == expected.width)
        #expect(image.height == expected.height)
        #expect(image.rgba.count == expected.width * expected.height * 4)
        #expect(image.rgba.reduce(0) { $0 + Int($1) } == expected.sum)
        let color = hash.averageColor
        #expect([color.red, color.green, color.blue, color.alpha] == expected.average)
        #expect(hash.approximateAspectRatio == expected.ratio)
        #expect(hash.hasAlpha == (expected.average[3] < 1))
    }

    @Test func hashSurvivesBytesAndBase64() throws {
        for vector in GoldenImage.vectors {
            let hash = try ThumbHash(base64: vector.hash)
            #expect(try ThumbHash(bytes: hash.bytes) == hash)
            #expect(try ThumbHash(base64: hash.base64) == hash)
            #expect(try ThumbHash(base64: String(vector.hash.prefix { $0 != "=" })) == hash)
        }
    }

    /// An opaque hash's decode, encoded again, keeps the average colour close: the format's own round trip.
    /// Left out: alpha hashes (the colour of nearly clear pixels is not kept) and the 1x1 image, whose
    /// AC terms are rounding noise that the reference still scales to full strength.
    @Test func decodeThenEncodeKeepsTheAverageColour() throws {
        for vector in GoldenImage.vectors where vector.image != .rampAlpha && vector.width > 1 {
            let hash = try ThumbHash(base64: vector.hash)
            let image = hash.decode()
            let again = try ThumbHash.encode(width: image.width, height: image.height, rgba: image.rgba)
            let (before, after) = (hash.averageColor, again.averageColor)
            #expect(abs(before.red - after.red) < 0.1)
            #expect(abs(before.green - after.green) < 0.1)
            #expect(abs(before.blue - after.blue) < 0.1)
            #expect(abs(before.alpha - after.alpha) < 0.1)
        }
    }
}
