import Testing
import ThumbHash
import VariantdTestSupport

/// Arbitrary bytes never crash the reader: they are rejected with a typed error, or they form a hash
/// whose decode has the size its header implies.
@Suite struct MalformedHashTests {
    @Test func everyTruncationOfAValidHashThrows() throws {
        for vector in GoldenImage.vectors {
            let bytes = try ThumbHash(base64: vector.hash).bytes
            for length in 0..<bytes.count {
                #expect(throws: ThumbHashError.self) {
                    try ThumbHash(bytes: Array(bytes.prefix(length)))
                }
            }
        }
    }

    @Test func randomBytesAreRejectedOrDecodeSafely() {
        var generator = SplitMix64(seed: 0x7468_756D_6268_6173)
        var accepted = 0
        for _ in 0..<20_000 {
            let length = Int(generator.next() % 32)
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            do {
                let hash = try ThumbHash(bytes: bytes)
                let image = hash.decode()
                #expect((1...32).contains(image.width) && (1...32).contains(image.height))
                #expect(image.rgba.count == image.width * image.height * 4)
                accepted += 1
            } catch let .hashLength(expected, actual) {
                #expect(actual == bytes.count && expected != actual)
            } catch {
                #expect(error == .zeroComponentCount)
            }
        }
        // Few random lengths match their header, but both outcomes must have been exercised.
        #expect(accepted > 100)
    }

    @Test func randomTextIsRejectedOrParsed() {
        var generator = SplitMix64(seed: 42)
        let characters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_ \n")
        for _ in 0..<5_000 {
            let length = Int(generator.next() % 40)
            let text = String(
                (0..<length).map { _ in
                    characters[Int(generator.next() % UInt64(characters.count))]
                })
            if let hash = try? ThumbHash(base64: text) {
                #expect(hash.decode().rgba.count > 0)
            }
        }
    }
}
