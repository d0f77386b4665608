import Testing
import Variants

@testable import VariantdCore

@Suite struct DeclarationFingerprintTests {
    private func fingerprint(_ text: String) throws -> String {
        try DeclarationFingerprint.of(try BucketDeclaration(parsing: Array(text.utf8)))
    }

    @Test func formattingAndSpelledOutDefaultsDoNotChangeIt() throws {
        let terse = #"{"name":"p","variants":{"t":{"width":200,"height":200,"format":"webp"}}}"#
        let spelled = """
            { "variants": { "t": { "format": "webp", "height": 200, "width": 200, "fit": "cover",
                                   "quality": 80 } },
              "name": "p" }
            """
        #expect(try fingerprint(terse) == fingerprint(spelled))
        #expect(try fingerprint(terse).count == 64)
    }

    /// `allowedMimeTypes` is a set: a type is taken when any entry matches it, so listing the entries in
    /// another order, or one twice, takes the same files and must not re-process every one of them.
    @Test func theOrderOfTheAllowedTypesDoesNotChangeIt() throws {
        func declaration(_ types: String) -> String {
            #"{"name":"p","allowedMimeTypes":\#(types),"variants":{"t":{"width":200,"format":"webp"}}}"#
        }
        let base = try fingerprint(declaration(#"["image/*","application/pdf"]"#))
        #expect(try base == fingerprint(declaration(#"["application/pdf","image/*"]"#)))
        #expect(try base == fingerprint(declaration(#"["image/*","application/pdf","image/*"]"#)))
        #expect(try base != fingerprint(declaration(#"["image/*"]"#)))
    }

    @Test func anyChangeToTheOutputsChangesIt() throws {
        let base = try fingerprint(#"{"name":"p","variants":{"t":{"width":200,"format":"webp"}}}"#)
        #expect(try base != fingerprint(#"{"name":"p","variants":{"t":{"width":201,"format":"webp"}}}"#))
        #expect(try base != fingerprint(#"{"name":"q","variants":{"t":{"width":200,"format":"webp"}}}"#))
        #expect(try base != fingerprint(#"{"name":"p","variants":{"u":{"width":200,"format":"webp"}}}"#))
        #expect(
            try base
                != fingerprint(
                    #"{"name":"p","allowedMimeTypes":["image/*"],"variants":{"t":{"width":200,"format":"webp"}}}"#
                ))
    }
}
