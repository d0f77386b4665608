import Testing
import ThumbHash

/// Every rejection, by its typed value.
@Suite struct ThumbHashErrorTests {
    @Test(arguments: [(0, 5), (5, 0), (101, 1), (1, 101), (101, 101), (-1, 3), (Int.max, 1)])
    func dimensionsOutsideOneToHundredAreRejected(width: Int, height: Int) {
        #expect(throws: ThumbHashError.dimensionsOutOfRange(width: width, height: height)) {
            try ThumbHash.encode(width: width, height: height, rgba: [UInt8](repeating: 0, count: 16))
        }
    }

    @Test(arguments: [0, 399, 401, 4])
    func pixelBuffersOfTheWrongLengthAreRejected(length: Int) {
        #expect(throws: ThumbHashError.pixelBufferLength(expected: 400, actual: length)) {
            try ThumbHash.encode(width: 10, height: 10, rgba: [UInt8](repeating: 0, count: length))
        }
    }

    @Test func hashesShorterThanTheHeaderAreRejected() {
        for length in 0..<5 {
            #expect(throws: ThumbHashError.hashLength(expected: 5, actual: length)) {
                try ThumbHash(bytes: [UInt8](repeating: 0x07, count: length))
            }
        }
        // The alpha bit promises a sixth header byte.
        #expect(throws: ThumbHashError.hashLength(expected: 6, actual: 5)) {
            try ThumbHash(bytes: [0, 0, 0x80, 0x05, 0])
        }
    }

    @Test func hashesTruncatedOrPaddedAreRejected() throws {
        let bytes = try ThumbHash(base64: "HwgKNxpwdndwd3d3d2d3d3d3BwiIgH8H").bytes
        #expect(throws: ThumbHashError.hashLength(expected: 24, actual: 23)) {
            try ThumbHash(bytes: Array(bytes.dropLast()))
        }
        #expect(throws: ThumbHashError.hashLength(expected: 24, actual: 25)) {
            try ThumbHash(bytes: bytes + [0])
        }
    }

    @Test func aZeroLuminanceCountIsRejected() {
        // Portrait, no alpha, lx = 0 in the low bits of byte 3.
        #expect(throws: ThumbHashError.zeroComponentCount) {
            try ThumbHash(bytes: [0, 0, 0, 0x00, 0] + [UInt8](repeating: 0x88, count: 19))
        }
        // Landscape (top bit of byte 4), ly = 0.
        #expect(throws: ThumbHashError.zeroComponentCount) {
            try ThumbHash(bytes: [0, 0, 0, 0x00, 0x80] + [UInt8](repeating: 0x88, count: 19))
        }
    }

    @Test(arguments: ["!!!!", "A", "AB=C", "HwgK Nxpw", "====", "HwgKNxpwdndwd3d3d2d3d3d3BwiIgH8Hé"])
    func textThatIsNotBase64IsRejected(text: String) {
        #expect(throws: ThumbHashError.invalidBase64) {
            try ThumbHash(base64: text)
        }
    }

    @Test func codesAreStable() {
        #expect(ThumbHashError.dimensionsOutOfRange(width: 0, height: 0).code == "dimensions_out_of_range")
        #expect(ThumbHashError.pixelBufferLength(expected: 4, actual: 0).code == "pixel_buffer_length")
        #expect(ThumbHashError.hashLength(expected: 5, actual: 0).code == "hash_length")
        #expect(ThumbHashError.zeroComponentCount.code == "zero_component_count")
        #expect(ThumbHashError.invalidBase64.code == "invalid_base64")
    }
}
