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

    func flip() throws(VariantsError) -> Flip {
        try oneOf(Flip.self, aliases: Flip.aliases)
    }

    /// `[x, y]` or the text `x,y` (as a query writes it), each a fraction in 0…1.
    func focalPoint() throws(VariantsError) -> FocalPoint {
        let rule = "focal point x,y of fractions in 0…1"
        let parts: [DeclarationField]
        switch value {
        case .array: parts = try elements()
        case .string(let text):
            parts = text.split(separator: ",", omittingEmptySubsequences: false).map { part in
                let number = try? JSONValue(parsing: part.utf8)
                return DeclarationField(path: path, value: number ?? .string(String(part)))
            }
        default: throw failure(expected: rule)
        }
        guard parts.count == 2, let x = try? parts[0].number(in: 0...1),
            let y = try? parts[1].number(in: 0...1)
        else { throw failure(expected: rule) }
        return FocalPoint(x: x, y: y)
    }

    /// How far a colour may be from the border's and still be trimmed, 0…255 a channel.
    func trimThreshold() throws(VariantsError) -> Int {
        try integer(in: VariantSpec.trimThresholds)
    }

    // MARK: - Watermark settings

    /// A relative path under the declarations' folder: no empty, `.` or `..` part, no control character.
    func watermarkFile() throws(VariantsError) -> String {
        let path = try string()
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard (1...255).contains(path.utf8.count), !path.hasPrefix("/"),
            parts.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }),
            !path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
        else { throw failure(expected: "a PNG's path relative to the declarations' folder, without . or ..") }
        return path
    }

    func watermarkPosition() throws(VariantsError) -> Position {
        let expected = "one of " + Watermark.positions.map(\.rawValue).joined(separator: ", ")
        guard let position = try? oneOf(Position.self, aliases: Position.aliases),
            Watermark.positions.contains(position)
        else { throw failure(expected: expected) }
        return position
    }

    func watermarkMargin() throws(VariantsError) -> Int {
        try integer(in: Watermark.margins)
    }

    func opacity() throws(VariantsError) -> Double {
        try number(in: 0...1)
    }

    /// A fraction of the rendition's width, above 0.
    func watermarkWidth() throws(VariantsError) -> Double {
        let fraction = try number(in: 0...1)
        guard fraction > 0 else { throw failure(expected: "number in 0…1 above 0") }
        return fraction
    }

    /// One channel of a colour.
    func channel() throws(VariantsError) -> UInt8 {
        UInt8(try integer(in: 0...255))
    }
}

extension DeclarationObject {
    /// The box a variant's settings name: `width`, `height` or both, each in 1…`maximumSide`, times `dpr`. A
    /// declaration's larger side reads as the largest (`clamping`); naming neither is refused where a side is
    /// `required` (an on-demand transform may name neither).
    func box(clamping: Bool, required: Bool) throws(VariantsError) -> (
        width: Int?, height: Int?
    ) {
        let sides = 1...VariantSpec.maximumSide
        var width = try self["width"]?.integer(in: sides, clamping: clamping)
        var height = try self["height"]?.integer(in: sides, clamping: clamping)
        // `dpr` multiplies the sides, so `width=300&dpr=2` is `width=600`: one rendition, one key.
        if let ratio = try self["dpr"]?.number(in: VariantSpec.pixelRatios), ratio != 1 {
            func scaled(_ side: Int) -> Int {
                min(VariantSpec.maximumSide, Int((Double(side) * ratio).rounded(.toNearestOrAwayFromZero)))
            }
            (width, height) = (width.map(scaled), height.map(scaled))
        }
        guard width != nil || height != nil || !required else {
            throw field.failure(expected: "width or height", got: "neither")
        }
        return (width, height)
    }
}
