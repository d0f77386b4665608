import Testing
import Variants

@testable import VariantdCore

@Suite struct DeclarationFingerprintTests {
    private func fingerprint(_ text: String) throws -> String {
        try DeclarationFingerprint.of(try BucketSpec(parsing: Array(text.utf8)))
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
