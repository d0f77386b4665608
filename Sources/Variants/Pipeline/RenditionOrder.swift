/// The one thing the pipeline is asked: which object, the policy its bucket holds uploads to, the renditions
/// that shape its decode and which of them to make, and whether its ThumbHash is wanted. Every caller (a job,
/// the queue's worker, batch, an on-demand render, `variantd render`, `probe`) states its request as one.
///
/// Made from values validated at the edge (a parsed declaration, a checked transform); read from a decoder
/// child's job line, every field is held to the same rules again, so an order in hand is always valid.
public struct RenditionOrder: Sendable, Codable, Equatable {
    public let object: ObjectRequest
    /// The SHA-256 of the object's bytes when the caller has it; the pipeline hashes them otherwise.
    public private(set) var checksum: String?
    /// Nil refuses nothing by policy: the object was let in already.
    public let policy: BucketPolicy?
    /// Sorted by name. Those not made still shape the decode and the resize ladder, so a rendition made
    /// alone has the bytes it has when the whole set is made.
    public let outputs: [RenditionOutput]
    /// Whether the ThumbHash is computed; an on-demand rendition has no use for it. The decode is sized for
    /// it either way, so a rendition's pixels do not depend on who asked.
    public let placeholder: Bool

    /// An order for the variants a bucket declares: all of them, or those whose spec keys are `making`.
    public init(
        _ object: ObjectRequest, bucket: BucketDeclaration?, making specKeys: Set<String>? = nil,
        placeholder: Bool = true, checksum: String? = nil
    ) {
        self.object = object
        self.checksum = checksum
        policy = bucket?.policy
        outputs = (bucket?.variants ?? []).map {
            RenditionOutput($0, made: specKeys?.contains(RenditionKey.specKey(of: $0)) ?? true)
        }
        self.placeholder = placeholder
    }

    /// An order for one rendition of an object already stored, with no ThumbHash and no policy. A spec the
    /// bucket's `declaration` has is made with every declared variant shaping the decode and the ladder, so
    /// its bytes are a job's whoever asks for them; any other spec is made alone.
    public init(
        _ object: ObjectRequest, rendering spec: VariantSpec, declaredAs declaration: BucketDeclaration?
    ) {
        let specKey = RenditionKey.specKey(of: spec)
        let declared = (declaration?.variants ?? []).map {
            RenditionOutput($0, made: RenditionKey.specKey(of: $0) == specKey)
        }
        self.object = object
        checksum = nil
        policy = nil
        outputs = declared.contains(where: \.made) ? declared : [RenditionOutput(spec, made: true)]
        placeholder = false
    }

    /// The same order for bytes whose checksum is now known.
    public func knowing(checksum: String) -> RenditionOrder {
        var order = self
        order.checksum = checksum
        return order
    }

    /// The spec keys of the renditions to make.
    public var made: Set<String> { Set(outputs.filter(\.made).map(\.specKey)) }

    private enum CodingKeys: String, CodingKey {
        case object, checksum, policy, outputs, placeholder
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        object = try container.decode(ObjectRequest.self, forKey: .object)
        checksum = try container.decodeIfPresent(String.self, forKey: .checksum)
        // The checksum names the folder every rendition of the object is filed under.
        guard checksum.map(Self.isChecksum) ?? true else {
            throw DecodingError.dataCorruptedError(
                forKey: .checksum, in: container, debugDescription: "expected 64 lower-case hex digits")
        }
        policy = try container.decodeIfPresent(BucketPolicy.self, forKey: .policy)
        outputs = try container.decode([RenditionOutput].self, forKey: .outputs)
        guard outputs.count <= BucketDeclaration.maximumVariants else {
            throw DecodingError.dataCorruptedError(
                forKey: .outputs, in: container,
                debugDescription: "expected at most \(BucketDeclaration.maximumVariants) outputs")
        }
        placeholder = try container.decode(Bool.self, forKey: .placeholder)
    }

    private static func isChecksum(_ text: String) -> Bool {
        text.utf8.count == 64
            && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}

/// One rendition of an order: the variant, its spec key, and whether it is made or only shapes the others.
public struct RenditionOutput: Sendable, Codable, Equatable {
    public let spec: VariantSpec
    public let made: Bool
    /// Derived from `spec` (`RenditionKey.specKey(of:)`), never read from the wire.
    public let specKey: String

    public init(_ spec: VariantSpec, made: Bool) {
        self.spec = spec
        self.made = made
        specKey = RenditionKey.specKey(of: spec)
    }

    private enum CodingKeys: String, CodingKey {
        case spec, made
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            try container.decode(VariantSpec.self, forKey: .spec),
            made: try container.decode(Bool.self, forKey: .made))
    }
}
