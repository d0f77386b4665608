import Testing
import VariantdTestSupport

@testable import ThumbHash

@Suite struct Base64Tests {
    @Test func encodesWithPadding() {
        #expect(Base64.encode([]) == "")
        #expect(Base64.encode(Array("f".utf8)) == "Zg==")
        #expect(Base64.encode(Array("fo".utf8)) == "Zm8=")
        #expect(Base64.encode(Array("foo".utf8)) == "Zm9v")
        #expect(Base64.encode([0xFB, 0xFF, 0xBF]) == "+/+/")
    }

    @Test func decodesEveryLengthPaddedOrNot() throws {
        var generator = SplitMix64(seed: 7)
        for length in 0..<40 {
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            let text = Base64.encode(bytes)
            #expect(try Base64.decode(text) == bytes)
            #expect(try Base64.decode(String(text.prefix { $0 != "=" })) == bytes)
        }
    }
}
