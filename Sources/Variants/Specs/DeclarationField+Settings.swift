/// The rule of each setting, stated once: a declaration, an on-demand transform and a decoder child's job line
/// read their values through these, so a rule changed here changes for every reader.
extension DeclarationField {
    // MARK: - Bucket settings

    func bucketName() throws(VariantsError) -> String {
        let name = try string()
        guard BucketDeclaration.isValidName(name) else { throw failure(expected: BucketDeclaration.nameRule) }
        return name
    }

    /// Bytes, at least 1.
    func fileSizeLimit() throws(VariantsError) -> Int {
        try integer(in: 1...Int.max)
    }

    func mimePatterns() throws(VariantsError) -> [MimePattern] {
        var patterns: [MimePattern] = []
        for element in try elements() {
            guard let pattern = MimePattern(declared: try element.string()) else {
                throw element.failure(expected: MimePattern.rule)
            }
            patterns.append(pattern)
        }
        return patterns
    }

    // MARK: - Variant settings

    /// The whole name is quoted when refused, however long: a declaration writes it as a key.
    func variantName() throws(VariantsError) -> String {
        let name = try string()
        guard VariantSpec.isValidName(name) else {
            throw failure(expected: VariantSpec.nameRule, got: JSONValue.quote(name))
        }
        return name
    }

    func fixedQuality() throws(VariantsError) -> Int {
        try integer(in: VariantSpec.qualities)
    }

    /// A SSIMULACRA2 score a quality is searched for.
    func score() throws(VariantsError) -> Int {
        try integer(in: QualityTarget.scores)
    }

    func blur() throws(VariantsError) -> Double {
        try number(in: VariantSpec.blurs)
    }

    func sharpen() throws(VariantsError) -> Double {
        try number(in: VariantSpec.sharpens)
    }

    func effort() throws(VariantsError) -> Int {
        try integer(in: VariantSpec.efforts)
    }

    /// Quarter turns only for now: other angles would need a canvas and a fill colour.
    func rotation() throws(VariantsError) -> Rotation {
        guard let degrees = try? integer(in: -360...360),
            let rotation = Rotation(rawValue: (degrees % 360 + 360) % 360)
        else { throw failure(expected: "multiple of 90 in -360…360") }
        return rotation
    }

    /// One channel of a colour.
    func channel() throws(VariantsError) -> UInt8 {
        UInt8(try integer(in: 0...255))
    }
}

extension DeclarationObject {
    /// The box a variant's settings name: `width`, `height` or both, each in 1…`maximumSide`. A
    /// declaration's larger side reads as the largest (`clamping`); naming neither is refused where a side is
    /// `required` (an on-demand transform may name neither).
    func box(clamping: Bool, required: Bool) throws(VariantsError) -> (
        width: Int?, height: Int?
    ) {
        let sides = 1...VariantSpec.maximumSide
        let width = try self["width"]?.integer(in: sides, clamping: clamping)
        let height = try self["height"]?.integer(in: sides, clamping: clamping)
        guard width != nil || height != nil || !required else {
            throw field.failure(expected: "width or height", got: "neither")
        }
        return (width, height)
    }
}
