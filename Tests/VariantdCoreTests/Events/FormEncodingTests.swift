import Testing

@testable import VariantdCore

@Suite struct FormEncodingTests {
    @Test func plusIsASpaceAndEscapesAreUTF8Bytes() {
        #expect(FormEncoding.decode("photos/a+b%C3%A9.jpg") == "photos/a bé.jpg")
        #expect(FormEncoding.decode("a%2Bb%2fc%25") == "a+b/c%")
        #expect(FormEncoding.decode("plain.jpg") == "plain.jpg")
    }

    @Test func aMalformedEscapeOrInvalidUTF8IsNil() {
        for text in ["%", "%4", "%G0", "a%C3", "%C3%28", "%FF"] {
            #expect(FormEncoding.decode(text) == nil, "\(text)")
        }
    }
}
