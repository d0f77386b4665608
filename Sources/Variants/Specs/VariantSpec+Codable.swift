/// A variant crosses to a decoder child field by field, and each field is read back under the rule the
/// declaration parser holds it to: a variant from a pipe is as valid as one parsed, without a second parse
/// of the declaration's text.
extension VariantSpec: Codable {
    private enum CodingKeys: String, CodingKey {
        case name, width, height, fit, position, format, quality, qualityTarget, blur, sharpen, rotation
        case background, withoutEnlargement, animated, progressive, effort
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func check(_ holds: Bool, _ key: CodingKeys, _ rule: String) throws {
            guard holds else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container, debugDescription: "expected \(rule)")
            }
        }
        func within(_ value: Double, _ range: ClosedRange<Int>) -> Bool {
            value >= Double(range.lowerBound) && value <= Double(range.upperBound)
        }
        let name = try container.decode(String.self, forKey: .name)
        try check(Self.isValidName(name), .name, Self.nameRule)
        let width = try container.decodeIfPresent(Int.self, forKey: .width)
        let height = try container.decodeIfPresent(Int.self, forKey: .height)
        try check(width != nil || height != nil, .width, "width or height")
        for (side, key) in [(width, CodingKeys.width), (height, .height)] {
            try check(
                side.map((1...Self.maximumSide).contains) ?? true, key, "a side in 1…\(Self.maximumSide)")
        }
        let quality = try container.decodeIfPresent(Int.self, forKey: .quality)
        try check(quality.map(Self.qualities.contains) ?? true, .quality, "quality in \(Self.qualities)")
        let qualityTarget = try container.decodeIfPresent(QualityTarget.self, forKey: .qualityTarget)
        try check(quality == nil || qualityTarget == nil, .qualityTarget, "a fixed quality or a target")
        let blur = try container.decode(Double.self, forKey: .blur)
        try check(within(blur, Self.blurs), .blur, "blur in \(Self.blurs)")
        let sharpen = try container.decode(Double.self, forKey: .sharpen)
        try check(within(sharpen, Self.sharpens), .sharpen, "sharpen in \(Self.sharpens)")
        let effort = try container.decodeIfPresent(Int.self, forKey: .effort)
        try check(effort.map(Self.efforts.contains) ?? true, .effort, "effort in \(Self.efforts)")
        self.init(
            name: name, width: width, height: height, fit: try container.decode(Fit.self, forKey: .fit),
            position: try container.decode(Position.self, forKey: .position),
            format: try container.decode(OutputFormat.self, forKey: .format), quality: quality,
            qualityTarget: qualityTarget, blur: blur, sharpen: sharpen,
            rotation: try container.decode(Rotation.self, forKey: .rotation),
            background: try container.decode(Colour.self, forKey: .background),
            withoutEnlargement: try container.decode(Bool.self, forKey: .withoutEnlargement),
            animated: try container.decode(Bool.self, forKey: .animated),
            progressive: try container.decodeIfPresent(Bool.self, forKey: .progressive), effort: effort)
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
    }
}
