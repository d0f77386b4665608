import Variants

/// A bucket's declaration as the decoder child receives it (its text) and as the daemon checks it (parsed).
struct BucketDeclaration: Sendable {
    let text: String
    let spec: BucketSpec

    init(text: String, spec: BucketSpec) {
        self.text = text
        self.spec = spec
    }

    init(parsing bytes: [UInt8]) throws(VariantsError) {
        spec = try BucketSpec(parsing: bytes)
        text = String(decoding: bytes, as: UTF8.self)
    }
}
