import Foundation

/// An on-demand rendition asked for by a URL's query (`?width=600&format=webp`) or a JSON object, read by the
/// same rules as a declared variant's settings so that one rule set serves both.
///
/// ```swift
/// let transform = try Transform(query: [("width", "600"), ("format", "auto")], accept: "image/avif,*/*")
/// transform.spec.format        // .avif
/// transform.spec.canonicalJSON // the store key's text: the same for any order or equal spelling
/// ```
public struct Transform: Sendable, Equatable {
    /// The settings with defaults filled in; `canonicalJSON` keys the stored rendition.
    public let spec: VariantSpec
    /// `format=auto` was resolved from the `Accept` header, so the answer must say `Vary: Accept`.
    public let variesWithAccept: Bool
    /// The client-hint headers `width=auto` and `dpr=auto` read (whether they were sent or not), which the
    /// answer's `Vary` must name.
    public let hintHeaders: [String]

    /// The name renditions made on demand carry in timings and messages.
    public static let name = "transform"

    /// Reads the query's options: each value is taken as JSON when it is JSON (`600`, `true`, `[1,2,3]`) and
    /// as a string otherwise (`cover`, `#fff`), then checked by the declaration's rules.
    ///
    /// - Parameters:
    ///   - query: The decoded name/value pairs in the order sent, without `expires`, `signature` and
    ///     `variant`, which are not options.
    ///   - accept: The request's `Accept` header, read only for `format=auto`.
    ///   - hints: The request's client hints, read only for `width=auto` and `dpr=auto`, and `Save-Data`.
    ///   - watermarks: The bucket's, which `watermark=NAME` chooses from.
    /// - Throws: `400 invalid_transform` naming the parameter (`width: expected integer ≥ 1, got -5`),
    ///   also for an unknown parameter or one given twice; `400 unknown_watermark` for a watermark the
    ///   bucket does not declare.
    public init(
        query: [(name: String, value: String)], accept: String?, hints: ClientHints = ClientHints(),
        watermarks: [Watermark] = []
    )
        throws(VariantsError)
    {
        var members: [(key: String, value: JSONValue)] = []
        for (name, value) in query {
            members.append((name, Self.queryValue(value)))
        }
        try self.init(members: members, path: "", accept: accept, hints: hints, watermarks: watermarks)
    }

    /// Reads the options given as the member `key` of a JSON object (`{"transforms": {"width": 600}}`);
    /// errors name the field under `key` (`transforms.width`).
    ///
    /// - Returns: nil when the member is absent or `null`.
    public static func inline(
        member key: String, of json: some Collection<UInt8>, accept: String? = nil,
        watermarks: [Watermark] = []
    ) throws(VariantsError) -> Transform? {
        let document: JSONValue
        do {
            document = try JSONValue(parsing: json)
        } catch {
            throw .invalidTransform(
                path: key, expected: "JSON", got: "\(error.found) at byte \(error.offset)")
        }
        guard case .object(let members) = document, let value = members.first(where: { $0.key == key })?.value
        else { return nil }
        if case .null = value { return nil }
        guard case .object(let settings) = value else {
            throw DeclarationField(path: key, value: value).failure(expected: "object")
        }
        return try Transform(
            members: settings, path: key, accept: accept, hints: ClientHints(), watermarks: watermarks)
    }

    private init(
        members: [(key: String, value: JSONValue)], path: String, accept: String?, hints: ClientHints,
        watermarks: [Watermark]
    ) throws(VariantsError) {
        let automatic = members.contains { $0.key == "format" && $0.value.isAuto }
        var resolved: [(key: String, value: JSONValue)] = members.map { member in
            member.key == "format" && member.value.isAuto
                ? (member.key, JSONValue.string(Self.format(accepting: accept).rawValue)) : member
        }
        hintHeaders = Self.resolve(&resolved, hints: hints)
        let spec = try BucketDeclaration.variant(
            named: Self.name, DeclarationField(path: path, value: .object(resolved)), sideRequired: false,
            watermarks: watermarks)
        self.spec = hints.saveData ? spec.savingData() : spec
        variesWithAccept = automatic
    }

    /// Puts the hints' numbers in place of `dpr=auto` and `width=auto`, and returns the headers read.
    ///
    /// `dpr=auto` is `Sec-CH-DPR` within 1…4, else 1. `width=auto` is `Sec-CH-Width`, which is in device
    /// pixels already, else `Sec-CH-Viewport-Width`, in CSS pixels, times the ratio; the ratio then multiplies
    /// only `height`. Without either hint it is no width (the height's, or the picture's own), or on a bucket
    /// that serves only some widths the largest of them; a hinted width there is rounded up to the next one
    /// served. Other values are left to the reader to refuse.
    private static func resolve(_ members: inout [(key: String, value: JSONValue)], hints: ClientHints)
        -> [String]
    {
        var read: [String] = []
        if let index = members.firstIndex(where: { $0.key == "dpr" && $0.value.isAuto }) {
            read.append(ClientHints.ratioHeader)
            if let ratio = ClientHints.number(hints.devicePixelRatio) {
                let clamped = min(Double(VariantSpec.pixelRatios.upperBound), max(1, ratio))
                members[index].value = .number(VariantSpec.canonicalNumber(clamped))
            } else {
                members.remove(at: index)
            }
        }
        guard let index = members.firstIndex(where: { $0.key == "width" && $0.value.isAuto }) else {
            return read
        }
        read.append(contentsOf: ClientHints.widthHeaders)
        let ratios = Double(VariantSpec.pixelRatios.lowerBound)...Double(VariantSpec.pixelRatios.upperBound)
        let ratioIndex = members.firstIndex(where: { $0.key == "dpr" })
        var ratio: Double?
        if let ratioIndex, case .number(let literal) = members[ratioIndex].value, let value = Double(literal),
            ratios.contains(value)
        {
            ratio = value
        }
        let device: Double
        if let hinted = ClientHints.number(hints.width) {
            device = hinted.rounded(.up)
        } else if let css = ClientHints.number(hints.viewportWidth) {
            device = (css.rounded(.up) * (ratio ?? 1)).rounded(.toNearestOrAwayFromZero)
        } else if let largest = hints.servedWidths?.last {
            members[index].value = .number(String(largest))
            return read
        } else {
            members.remove(at: index)
            return read
        }
        members[index].value = .number(String(hints.served(Int(min(device, Double(Int32.max))))))
        // The width is in device pixels: the ratio goes into the height alone.
        guard let ratio, let ratioIndex else { return read }
        if let heightIndex = members.firstIndex(where: { $0.key == "height" }),
            case .number(let height) = members[heightIndex].value, let side = Double(height),
            side.isFinite, side.rounded(.towardZero) == side
        {
            let scaled = min((side * ratio).rounded(.toNearestOrAwayFromZero), Double(Int32.max))
            members[heightIndex].value = .number(VariantSpec.canonicalNumber(scaled))
        }
        members.remove(at: ratioIndex)
        return read
    }

    /// AVIF, then WebP, then JPEG: the first the client names with a non-zero `q`. Wildcards do not count,
    /// since browsers send `*/*` without being able to show AVIF.
    public static func format(accepting accept: String?) -> OutputFormat {
        var accepted: Set<String> = []
        for range in (accept ?? "").split(separator: ",") {
            let parts = range.split(separator: ";").map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            }
            guard let type = parts.first else { continue }
            let refused = parts.dropFirst().contains { parameter in
                parameter.hasPrefix("q=") && (Double(parameter.dropFirst(2)) ?? 1) <= 0
            }
            if !refused { accepted.insert(type) }
        }
        if accepted.contains("image/avif") { return .avif }
        if accepted.contains("image/webp") { return .webp }
        return .jpeg
    }

    /// JSON when the text is JSON; `null` stays the word, since a query cannot mean "absent" by it.
    private static func queryValue(_ text: String) -> JSONValue {
        guard let value = try? JSONValue(parsing: text.utf8) else { return .string(text) }
        if case .null = value { return .string(text) }
        return value
    }
}

extension JSONValue {
    /// The word `auto`, which only `format`, `width` and `dpr` of a transform take.
    fileprivate var isAuto: Bool {
        if case .string(let word) = self { return word == "auto" }
        return false
    }
}
