import Variants

/// The SHA-256 of a bucket declaration's canonical form: what a manifest line records so a re-run knows
/// whether the line was made under the same declaration.
///
/// The canonical form is the parsed declaration, not its text: reformatting the file, reordering its keys or
/// spelling a default out changes nothing, while any change that alters the outputs (a variant's effective
/// settings, the name, the size limit, the accepted types) gives a new fingerprint and re-renders.
enum DeclarationFingerprint {
    private struct Canonical: Encodable {
        var name: String
        var fileSizeLimit: Int?
        /// Sorted and without repeats: a type is taken when any entry matches, so their order changes nothing.
        var allowedMimeTypes: [String]
        /// Variant name → `VariantSpec.canonicalJSON`, the text the rendition store keys files by.
        var variants: [String: String]
    }

    static func of(_ spec: BucketDeclaration) throws -> String {
        let canonical = Canonical(
            name: spec.name, fileSizeLimit: spec.fileSizeLimit,
            allowedMimeTypes: Set(spec.allowedMimeTypes.map(\.description)).sorted(),
            variants: Dictionary(uniqueKeysWithValues: spec.variants.map { ($0.name, $0.canonicalJSON) }))
        return SHA256.hex(try WireJSON.encode(canonical))
    }
}
