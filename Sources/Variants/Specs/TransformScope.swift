/// Which on-demand transforms a bucket serves beside its declared variants, which are always served: any
/// options (the default), none (`"transforms": "declared"`), or only those of a declared width
/// (`"widths": [200, 600, 1200]`), so that a public bucket's renditions cannot be minted at will.
///
/// Made only by parsing a declaration, so a width list is never empty, unsorted or out of range. Both checks
/// are a comparison for a bucket that limits nothing: they run on every render request, hits included.
public struct TransformScope: Sendable, Equatable {
    enum Rule: Sendable, Equatable {
        case any
        case declaredOnly
        /// Sorted, distinct, each in 1…`VariantSpec.maximumSide`, at least one.
        case widths([Int])
    }

    let rule: Rule

    /// Any options: the scope of a bucket that declares neither field.
    public static let any = TransformScope(rule: .any)

    /// The spelling of `"transforms"`.
    enum Setting: String, CaseIterable {
        case any, declared
    }

    /// At most this many widths: each is a rendition of every picture, and a picture has at most
    /// `BucketDeclaration.maximumVariants` transforms.
    static let maximumWidths = BucketDeclaration.maximumVariants

    /// The widths transforms may have, sorted; nil when the bucket does not limit them.
    public var widths: [Int]? {
        if case .widths(let widths) = rule { return widths }
        return nil
    }

    /// Refuses options of a bucket that serves only its declared variants, before they are read.
    ///
    /// - Throws: `403 transforms_declared_only`.
    public func admitOptions(bucket: String) throws(VariantsError) {
        guard case .declaredOnly = rule else { return }
        throw VariantsError(
            .transformsDeclaredOnly,
            "bucket '\(bucket)' serves only its declared variants: ask for ?variant=NAME, without options")
    }

    /// Refuses a transform whose width the bucket does not declare; one with no width of its own (only a
    /// height) is refused too, since its width could be any.
    ///
    /// - Throws: `403 width_not_declared`.
    /// - Throws: `403 transforms_declared_only` where the bucket takes no options at all.
    public func admit(_ spec: VariantSpec, bucket: String) throws(VariantsError) {
        try admitOptions(bucket: bucket)
        guard case .widths(let widths) = rule else { return }
        if let width = spec.width, widths.contains(width) { return }
        let declared = widths.map(String.init).joined(separator: ", ")
        let asked = spec.width.map { "width \($0)" } ?? "no width"
        throw VariantsError(
            .widthNotDeclared,
            "bucket '\(bucket)' serves only the widths \(declared), and \(asked) was asked for")
    }
}
