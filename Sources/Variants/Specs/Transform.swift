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

    /// The name renditions made on demand carry in timings and messages.
    public static let name = "transform"

    /// Reads the query's options: each value is taken as JSON when it is JSON (`600`, `true`, `[1,2,3]`) and
    /// as a string otherwise (`cover`, `#fff`), then checked by the declaration's rules.
    ///
    /// - Parameters:
    ///   - query: The decoded name/value pairs in the order sent, without `expires`, `signature` and
    ///     `variant`, which are not options.
    ///   - accept: The request's `Accept` header, read only for `format=auto`.
    ///   - watermarks: The bucket's, which `watermark=NAME` chooses from.
    /// - Throws: `400 invalid_transform` naming the parameter (`width: expected integer ≥ 1, got -5`),
    ///   also for an unknown parameter or one given twice; `400 unknown_watermark` for a watermark the
    ///   bucket does not declare.
    public init(query: [(name: String, value: String)], accept: String?, watermarks: [Watermark] = [])
        throws(VariantsError)
    {
        var members: [(key: String, value: JSONValue)] = []
        for (name, value) in query {
            members.append((name, Self.queryValue(value)))
        }
        try self.init(members: members, path: "", accept: accept, watermarks: watermarks)
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
        return try Transform(members: settings, path: key, accept: accept, watermarks: watermarks)
    }

    private init(
        members: [(key: String, value: JSONValue)], path: String, accept: String?, watermarks: [Watermark]
    ) throws(VariantsError) {
        let automatic = members.contains { $0.key == "format" && $0.value.isAuto }
        let resolved = members.map { member in
            member.key == "format" && member.value.isAuto
                ? (member.key, JSONValue.string(Self.format(accepting: accept).rawValue)) : member
        }
        spec = try BucketDeclaration.variant(
            named: Self.name, DeclarationField(path: path, value: .object(resolved)), sideRequired: false,
            watermarks: watermarks)
        variesWithAccept = automatic
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
    /// The word `auto`, which only `format` of a transform takes.
    fileprivate var isAuto: Bool {
        if case .string(let word) = self { return word == "auto" }
        return false
    }
}
