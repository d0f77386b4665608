import Variants

/// A bucket declaration as the registry holds it: with each variant's rendition output, whose spec key is
/// computed once when the declaration is loaded, not on every `?variant=` request or render.
struct RegisteredBucket: Sendable {
    let declaration: BucketDeclaration
    /// In the declaration's order (by name), each made.
    let outputs: [RenditionOutput]

    init(_ declaration: BucketDeclaration) {
        self.declaration = declaration
        outputs = declaration.variants.map { RenditionOutput($0, wanted: true) }
    }

    /// The output of the variant declared as `name`.
    func output(named name: String) -> RenditionOutput? {
        outputs.first { $0.spec.name == name }
    }
}
