extension BucketDeclaration {
    /// Reads a bucket declaration, checking every rule once so that nothing downstream has to.
    ///
    /// The declaration is a JSON object with `name`, and optionally `public`, `account`, `fileSizeLimit`,
    /// `allowedMimeTypes`, `blockExecutables`, `variants` (an object of variant name to settings),
    /// `transforms` and `widths`; `docs/BucketDeclaration.md` lists every field.
    /// Unknown keys and keys given twice are errors, so a typo cannot silently fall back to a default;
    /// `null` reads as an absent optional field.
    ///
    /// - Parameter json: The declaration's UTF-8 text (`Data`, `[UInt8]` or a string's `utf8` view).
    /// - Throws: `400 invalid_transform` naming the first offending field, what it must be and what it was
    ///   (`variants.thumb.quality: expected integer in 1…100, got 0`); `429 too_many_variants` over
    ///   `maximumVariants`.
    ///
    /// - Parameter readFile: Reads a watermark's `file` (a path the parser has checked to be relative, without
    ///   `.` or `..`) from the declarations' folder, its error's message saying what the file is instead;
    ///   without it, a declaration that declares watermarks is refused, since they have nowhere to come from.
    public init(
        parsing json: some Collection<UInt8>, readFile: ((String) throws(VariantsError) -> [UInt8])? = nil
    ) throws(VariantsError) {
        try self.init(DeclarationField(path: "", value: try Self.document(json)), readFile: readFile)
    }

    /// Reads the declaration given inline as the member `key` of a JSON object (a job's `bucketPolicy`)
    /// with the same rules as a declaration file; errors name the field under `key`. A key given twice at
    /// the top level is refused as well, since the object is read only once.
    ///
    /// - Returns: nil when the member is absent or `null`.
    /// - Throws: `400 invalid_request` for a key given twice at the top level; otherwise as
    ///   `init(parsing:)`.
    public static func inline(member key: String, of json: some Collection<UInt8>) throws(VariantsError)
        -> BucketDeclaration?
    {
        guard case .object(let members) = try document(json) else { return nil }
        try JSONValue.refuseRepeatedKeys(members)
        guard let value = members.first(where: { $0.key == key })?.value else { return nil }
        if case .null = value { return nil }
        return try BucketDeclaration(DeclarationField(path: key, value: value), readFile: nil)
    }

    private static func document(_ json: some Collection<UInt8>) throws(VariantsError) -> JSONValue {
        do {
            return try JSONValue(parsing: json)
        } catch {
            let found = "\(error.found) at byte \(error.offset)"
            throw .invalidTransform(path: "declaration", expected: "JSON", got: found)
        }
    }

    private init(_ root: DeclarationField, readFile: ((String) throws(VariantsError) -> [UInt8])?)
        throws(VariantsError)
    {
        let bucket = try root.object(knownKeys: [
            "name", "public", "account", "fileSizeLimit", "allowedMimeTypes", "blockExecutables", "variants",
            "transforms", "widths", "watermarks",
        ])
        let watermarks =
            try bucket["watermarks"].map { (field) throws(VariantsError) in
                try Self.watermarks(field, readFile: readFile)
            } ?? []
        let name = try bucket.required("name", expected: Self.nameRule)
        let allowedMimeTypes = try bucket["allowedMimeTypes"]?.mimePatterns() ?? []
        self.init(
            name: try name.bucketName(),
            isPublic: try bucket["public"]?.bool() ?? false,
            account: try bucket["account"]?.bucketName(),
            fileSizeLimit: try bucket["fileSizeLimit"]?.fileSizeLimit(),
            allowedMimeTypes: allowedMimeTypes,
            blockExecutables: try bucket["blockExecutables"]?.bool() ?? false,
            variants: try bucket["variants"].map { (field) throws(VariantsError) in
                try Self.variants(field, watermarks: watermarks)
            } ?? [],
            transforms: try bucket.transformScope(),
            watermarks: watermarks
        )
    }

    // MARK: - Variants

    private static func variants(_ field: DeclarationField, watermarks: [Watermark]) throws(VariantsError)
        -> [VariantSpec]
    {
        let members = try field.members()
        guard members.count <= maximumVariants else {
            let message = "\(field.path): expected at most \(maximumVariants) variants, got \(members.count)"
            throw VariantsError(.tooManyVariants, message)
        }
        var variants: [VariantSpec] = []
        for (name, settings) in members {
            // A variant's name is its key.
            let name = try DeclarationField(path: field.path, value: .string(name)).variantName()
            variants.append(try variant(named: name, settings, watermarks: watermarks))
        }
        return variants
    }

    // MARK: - Variant fields

    /// One variant's settings; the same reader serves a declaration and an on-demand transform, so both
    /// follow one rule set. A transform may name neither side (`sideRequired` false): the picture keeps its
    /// own size, clamped like a declared side, which is the box `maximumSide` square fitted `inside` without
    /// enlargement.
    static func variant(
        named name: String, _ field: DeclarationField, sideRequired: Bool = true, watermarks: [Watermark] = []
    ) throws(VariantsError) -> VariantSpec {
        let settings = try field.object(knownKeys: [
            "width", "height", "fit", "position", "format", "quality", "blur", "sharpen", "rotate",
            "background", "withoutEnlargement", "animated", "progressive", "effort", "dpr", "flip", "focus",
            "trim", "metadata", "watermark",
        ])
        var (width, height) = try settings.box(clamping: true, required: sideRequired)
        var fit = try settings["fit"]?.oneOf(Fit.self)
        var withoutEnlargement = try settings["withoutEnlargement"]?.bool() ?? true
        if width == nil && height == nil {
            (width, height) = (VariantSpec.maximumSide, VariantSpec.maximumSide)
            (fit, withoutEnlargement) = (.inside, true)
        }
        let quality = try settings["quality"].map(Self.quality)
        let focus = try settings["focus"]?.focalPoint()
        if focus != nil, let position = settings["position"] {
            throw position.failure(expected: "position or focus, not both", got: "both")
        }
        return VariantSpec(
            name: name,
            width: width,
            height: height,
            fit: fit,
            position: try settings["position"]?.oneOf(Position.self, aliases: Position.aliases) ?? .centre,
            format: try settings["format"]?.oneOf(OutputFormat.self) ?? .jpeg,
            quality: quality?.fixed,
            qualityTarget: quality?.target,
            blur: try settings["blur"]?.blur() ?? 0,
            sharpen: try settings["sharpen"]?.sharpen() ?? 0,
            rotation: try settings["rotate"]?.rotation() ?? .d0,
            background: try settings["background"].map(colour) ?? .white,
            withoutEnlargement: withoutEnlargement,
            animated: try settings["animated"]?.bool() ?? true,
            progressive: try settings["progressive"]?.bool(),
            effort: try settings["effort"]?.effort(),
            flip: try settings["flip"]?.flip(),
            focus: focus,
            trim: try settings["trim"]?.trimThreshold(),
            metadata: try settings["metadata"]?.oneOf(KeptMetadata.self) ?? .none,
            watermark: try settings["watermark"].map { (field) throws(VariantsError) in
                try Self.watermark(named: field, among: watermarks)
            }
        )
    }

    /// The bucket's watermark the field names.
    ///
    /// - Throws: `400 unknown_watermark` for a name the bucket does not declare.
    private static func watermark(named field: DeclarationField, among watermarks: [Watermark])
        throws(VariantsError) -> Watermark
    {
        let name = try field.string()
        if let watermark = watermarks.first(where: { $0.name == name }) { return watermark }
        let declared = watermarks.isEmpty ? "none" : watermarks.map(\.name).joined(separator: ", ")
        throw VariantsError(
            .unknownWatermark,
            "\(field.path): expected a watermark the bucket declares (\(declared)), got \(field.value.quoted())"
        )
    }

    // MARK: - Watermarks

    private static func watermarks(
        _ field: DeclarationField, readFile: ((String) throws(VariantsError) -> [UInt8])?
    ) throws(VariantsError) -> [Watermark] {
        var watermarks: [Watermark] = []
        for (name, settings) in try field.members() {
            let name = try DeclarationField(path: field.path, value: .string(name)).variantName()
            let members = try settings.object(knownKeys: ["file", "position", "margin", "opacity", "width"])
            let fileField = try members.required("file", expected: "a PNG's path")
            let file = try fileField.watermarkFile()
            guard let readFile else {
                throw settings.failure(
                    expected: "a declaration read from a file, whose folder holds the PNG",
                    got: "a declaration without one")
            }
            let png: [UInt8]
            do {
                png = try readFile(file)
            } catch {
                throw fileField.failure(
                    expected: "a PNG file inside the declarations' folder", got: error.message)
            }
            watermarks.append(
                try Watermark(
                    name: name, file: file,
                    position: try members["position"]?.watermarkPosition() ?? .southeast,
                    margin: try members["margin"]?.watermarkMargin() ?? 0,
                    opacity: try members["opacity"]?.opacity() ?? 1,
                    width: try members["width"]?.watermarkWidth() ?? 0.25,
                    png: png,
                    fail: { fileField.failure(expected: $0, got: "another file") }))
        }
        return watermarks
    }

    /// A fixed quality in 1…100, `"auto"`, or `{"ssimulacra2": N}` with N in `QualityTarget.scores`. Any format
    /// takes a target, so that `format=auto` with `quality=auto` always reads; those without a search
    /// (`OutputFormat.defaultScoreTarget`) use their default quality.
    private static func quality(_ field: DeclarationField) throws(VariantsError) -> (
        fixed: Int?, target: QualityTarget?
    ) {
        let scores = QualityTarget.scores
        let target: QualityTarget
        switch field.value {
        case .number:
            return (try field.fixedQuality(), nil)
        case .string("auto"):
            target = .auto
        case .object:
            let settings = try field.object(knownKeys: ["ssimulacra2"])
            guard let score = settings["ssimulacra2"] else {
                throw field.failure(
                    expected: "{\"ssimulacra2\": integer in \(scores.lowerBound)…\(scores.upperBound)}")
            }
            target = .ssimulacra2(try score.score())
        default:
            throw field.failure(
                expected:
                    "integer in \(VariantSpec.qualities.lowerBound)…\(VariantSpec.qualities.upperBound), \"auto\" or "
                    + "{\"ssimulacra2\": \(scores.lowerBound)…\(scores.upperBound)}"
            )
        }
        return (nil, target)
    }

    private static func colour(_ field: DeclarationField) throws(VariantsError) -> Colour {
        let rule = "colour as #rgb, #rrggbb, #rrggbbaa, [r, g, b] or [r, g, b, a]"
        var channels: [UInt8] = []
        switch field.value {
        case .array:
            let components = try field.elements()
            guard (3...4).contains(components.count) else { throw field.failure(expected: rule) }
            for component in components {
                channels.append(try component.channel())
            }
        case .string(let text) where text.hasPrefix("#"):
            let digits = text.dropFirst().compactMap { $0.isASCII ? $0.hexDigitValue.map(UInt8.init) : nil }
            guard digits.count == text.count - 1 else { throw field.failure(expected: rule) }
            switch digits.count {
            case 3: channels = digits.map { $0 * 17 }
            case 6, 8:
                channels = stride(from: 0, to: digits.count, by: 2).map { digits[$0] << 4 | digits[$0 + 1] }
            default: throw field.failure(expected: rule)
            }
        default: throw field.failure(expected: rule)
        }
        let alpha = channels.count == 4 ? channels[3] : 255
        return Colour(red: channels[0], green: channels[1], blue: channels[2], alpha: alpha)
    }
}
