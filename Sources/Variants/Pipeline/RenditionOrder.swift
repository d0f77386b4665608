/// The one thing the pipeline is asked: which object, the policy its bucket holds uploads to, the renditions
/// that shape its decode and which of them to make, and whether its ThumbHash is wanted. Every caller (a job,
/// the queue's worker, batch, an on-demand render, `variantd render`, `probe`) states its request as one.
///
/// Made from values validated at the edge (a parsed declaration, a checked transform); read from a decoder
/// child's job line, every field is held to the same rules again, so an order in hand is always valid.
public struct RenditionOrder: Sendable, Codable, Equatable {
    public let object: ObjectRequest
    /// The SHA-256 of the object's bytes, set by whoever read them (`knowing(checksum:)`); the pipeline
    /// hashes them when it is not set.
    public private(set) var checksum: String?
    /// Nil refuses nothing by policy: the object was let in already.
    public private(set) var policy: BucketPolicy?
    /// Sorted by name. Those not wanted still shape the decode and the resize ladder, so a rendition made
    /// alone has the bytes it has when the whole set is made.
    public let outputs: [RenditionOutput]
    /// Whether the ThumbHash is computed; an on-demand rendition has no use for it. The decode is sized for
    /// it either way, so a rendition's pixels do not depend on who asked.
    public let placeholder: Bool

    /// An order for every variant a bucket declares, with the ThumbHash unless told otherwise.
    public init(_ object: ObjectRequest, bucket: BucketDeclaration?, placeholder: Bool = true) {
        self.object = object
        checksum = nil
        policy = bucket?.policy
        outputs = (bucket?.variants ?? []).map { RenditionOutput($0, wanted: true) }
        self.placeholder = placeholder
    }

    /// An order for one rendition of an object already stored, with no ThumbHash and no policy. A spec among
    /// the bucket's `declared` outputs is made with every declared variant shaping the decode and the
    /// ladder, so its bytes are a job's whoever asks for them; any other spec is made alone.
    public init(_ object: ObjectRequest, rendering wanted: RenditionOutput, among declared: [RenditionOutput])
    {
        self.object = object
        checksum = nil
        policy = nil
        outputs =
            declared.contains { $0.specKey == wanted.specKey }
            ? declared.map {
                RenditionOutput($0.spec, specKey: $0.specKey, wanted: $0.specKey == wanted.specKey)
            }
            : [RenditionOutput(wanted.spec, specKey: wanted.specKey, wanted: true)]
        placeholder = false
    }

    /// The same order for an upload held to `policy`, its bucket's narrowed by the job's ceilings.
    public func holding(to policy: BucketPolicy) -> RenditionOrder {
        var order = self
        order.policy = policy
        return order
    }

    /// The same order for bytes whose checksum is now known.
    public func knowing(checksum: String) -> RenditionOrder {
        var order = self
        order.checksum = checksum
        return order
    }

    /// The spec keys of the renditions to make.
    public var wantedSpecKeys: Set<String> { Set(outputs.filter(\.wanted).map(\.specKey)) }

    private enum CodingKeys: String, CodingKey {
        case object, checksum, policy, outputs, placeholder
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        object = try container.decode(ObjectRequest.self, forKey: .object)
        checksum = try container.decodeIfPresent(String.self, forKey: .checksum)
        // The checksum names the folder every rendition of the object is filed under.
        guard checksum.map({ isLowerHex($0, digits: 64) }) ?? true else {
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
}

/// One rendition of an order: the variant, its spec key, and whether it is wanted or only shapes the others.
public struct RenditionOutput: Sendable, Codable, Equatable {
    public let spec: VariantSpec
    public let wanted: Bool
    /// The name of the spec's renditions (`RenditionKey.specKey(of:)`), computed once by the parent and
    /// carried to the child with the spec.
    public let specKey: String

    public init(_ spec: VariantSpec, wanted: Bool) {
        self.init(spec, specKey: RenditionKey.specKey(of: spec), wanted: wanted)
    }

    /// An output whose spec key the caller computed from `spec` already.
    public init(_ spec: VariantSpec, specKey: String, wanted: Bool) {
        self.spec = spec
        self.wanted = wanted
        self.specKey = specKey
    }

    private enum CodingKeys: String, CodingKey {
        case spec, wanted, specKey
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let specKey = try container.decode(String.self, forKey: .specKey)
        // It names files in the folder of the object's renditions.
        guard isLowerHex(specKey, digits: 16) else {
            throw DecodingError.dataCorruptedError(
                forKey: .specKey, in: container, debugDescription: "expected 16 lower-case hex digits")
        }
        self.init(
            try container.decode(VariantSpec.self, forKey: .spec), specKey: specKey,
            wanted: try container.decode(Bool.self, forKey: .wanted))
    }
}

/// Whether `text` is `digits` lower-case hexadecimal digits, as checksums and spec keys are written.
private func isLowerHex(_ text: String, digits: Int) -> Bool {
    text.utf8.count == digits
        && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
}
