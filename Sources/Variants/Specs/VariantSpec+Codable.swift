/// A variant crosses to a decoder child field by field, and each field is read back under the rule the
/// declaration parser holds it to: a variant from a pipe is as valid as one parsed, without a second parse
/// of the declaration's text.
extension VariantSpec: Codable {
    private enum CodingKeys: String, CodingKey, CaseIterable {
        case name, width, height, fit, position, format, quality, qualityTarget, blur, sharpen, rotation
        case background, withoutEnlargement, animated, progressive, effort, flip, focus, trim
        case metadata, watermark
    }

    public init(from decoder: any Decoder) throws {
        self = try DeclarationField.decoding(decoder, Self.init(wire:))
    }

    /// The line holds every setting (defaults filled in) under its own name; one it lacks is refused, never
    /// defaulted again.
    private init(wire field: DeclarationField) throws(VariantsError) {
        let settings = try field.object(knownKeys: CodingKeys.allCases.map(\.rawValue))
        func member(_ key: CodingKeys) throws(VariantsError) -> DeclarationField {
            try settings.required(key.rawValue, expected: "a value")
        }
        let box = try settings.box(clamping: false, required: true)
        let quality = try settings["quality"]?.fixedQuality()
        let qualityTarget = try settings["qualityTarget"].map(QualityTarget.init(wire:))
        guard quality == nil || qualityTarget == nil else {
            throw field.failure(expected: "a fixed quality or a target", got: "both")
        }
        self.init(
            name: try member(.name).variantName(),
            width: box.width,
            height: box.height,
            fit: try member(.fit).oneOf(Fit.self),
            position: try member(.position).oneOf(Position.self),
            format: try member(.format).oneOf(OutputFormat.self),
            quality: quality,
            qualityTarget: qualityTarget,
            blur: try member(.blur).blur(),
            sharpen: try member(.sharpen).sharpen(),
            rotation: try member(.rotation).rotation(),
            background: try Colour(wire: try member(.background)),
            withoutEnlargement: try member(.withoutEnlargement).bool(),
            animated: try member(.animated).bool(),
            progressive: try settings["progressive"]?.bool(),
            effort: try settings["effort"]?.effort(),
            flip: try settings["flip"]?.flip(),
            focus: try settings["focus"]?.focalPoint(),
            trim: try settings["trim"]?.trimThreshold(),
            metadata: try member(.metadata).oneOf(KeptMetadata.self),
            watermark: try settings["watermark"].map(Watermark.init(wire:))
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encodeIfPresent(width, forKey: .width)
        try container.encodeIfPresent(height, forKey: .height)
        try container.encode(fit, forKey: .fit)
        try container.encode(position, forKey: .position)
        try container.encode(format, forKey: .format)
        try container.encodeIfPresent(quality, forKey: .quality)
        try container.encodeIfPresent(qualityTarget, forKey: .qualityTarget)
        try container.encode(blur, forKey: .blur)
        try container.encode(sharpen, forKey: .sharpen)
        try container.encode(rotation, forKey: .rotation)
        try container.encode(background, forKey: .background)
        try container.encode(withoutEnlargement, forKey: .withoutEnlargement)
        try container.encode(animated, forKey: .animated)
        try container.encodeIfPresent(progressive, forKey: .progressive)
        try container.encodeIfPresent(effort, forKey: .effort)
        try container.encodeIfPresent(flip, forKey: .flip)
        try container.encodeIfPresent(focus.map { [$0.x, $0.y] }, forKey: .focus)
        try container.encodeIfPresent(trim, forKey: .trim)
        try container.encode(metadata, forKey: .metadata)
        try container.encodeIfPresent(watermark, forKey: .watermark)
    }
}
