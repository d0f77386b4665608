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

    /// The rule `BucketSpec(parsing:)` applies to `name`, applied to the job's bucket so that a name from
    /// the network can never name a file outside the declarations directory.
    static let nameRule =
        "bucket name of 1…63 characters from a-z 0-9 . _ -, starting with a letter or digit, without .."

    static func isValidName(_ name: String) -> Bool {
        let alphanumerics = Set("abcdefghijklmnopqrstuvwxyz0123456789")
        guard (1...63).contains(name.count), let first = name.first, alphanumerics.contains(first) else {
            return false
        }
        return name.allSatisfy { alphanumerics.contains($0) || "._-".contains($0) } && !name.contains("..")
    }
}
