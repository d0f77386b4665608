import Foundation
import Variants

/// A render request read at the edge: `GET`/`HEAD /v1/render/<bucket>/<object path>?<options>` (the object
/// at `<root>/<bucket>/<object path>`, options decoded in order, signing parameters set apart), or
/// `POST /v1/render` with `{bucket, path, source, transforms | variant}` for other layouts.
struct RenderRequest: Sendable {
    static let prefix = "/v1/render/"
    static let postPath = "/v1/render"

    /// What is to be rendered.
    enum Asked: Sendable {
        /// Query options, without `variant`, `expires` and `signature`.
        case options([(name: String, value: String)])
        /// A `POST` body whose `transforms` member holds the options.
        case body([UInt8])
        /// The bucket's declared variant of that name.
        case variant(String)
    }

    let bucket: String
    /// The object's path inside the bucket.
    let path: String
    /// Where the object's bytes are, relative to the store root.
    let source: String
    let asked: Asked
    let expires: String?
    let target: String

    /// - Parameter prefix: What comes before the bucket: `/v1/info/` reads its object the same way.
    /// - Throws: `400 invalid_request` for a bucket or path out of its rule, `400 invalid_transform` for
    ///   `variant` beside options or given twice.
    init(path decodedPath: String, target: String, prefix: String = Self.prefix) throws(VariantsError) {
        let location = decodedPath.dropFirst(prefix.count)
        let bucket = String(location.prefix { $0 != "/" })
        let path = String(location.dropFirst(bucket.count + 1))
        try Self.check(bucket: bucket, path: path)
        try ObjectFolder.checkRelative(bucket + "/" + path)
        var options: [(name: String, value: String)] = []
        var variant: String?
        var expires: String?
        for (name, value) in Self.parameters(of: target) {
            switch name {
            case "signature": continue
            case "expires": expires = value
            case "variant":
                guard variant == nil else {
                    throw .invalidTransform(
                        path: "variant", expected: "each key once", got: "a second \"variant\"")
                }
                variant = value
            default: options.append((name, value))
            }
        }
        if variant != nil, let first = options.first {
            throw .invalidTransform(
                path: "variant", expected: "no other option beside a declared variant",
                got: "\"\(first.name)\"")
        }
        self.bucket = bucket
        self.path = path
        source = bucket + "/" + path
        asked = variant.map(Asked.variant) ?? .options(options)
        self.expires = expires
        self.target = target
    }

    /// Reads a `POST /v1/render` body; `source` follows the job's rules, and a key given twice is refused.
    init(body: [UInt8], target: String) throws(VariantsError) {
        let fields = try WireJSON.request(Fields.self, from: body, subject: "the body")
        try Transform.refuseRepeatedKeys(in: body)
        try Self.check(bucket: fields.bucket, path: fields.path)
        try ObjectFolder.checkRelative(fields.source)
        switch (fields.hasTransforms, fields.variant) {
        case (true, nil): asked = .body(body)
        case (false, let variant?): asked = .variant(variant)
        default: throw VariantsError(.invalidRequest, "expected one of transforms and variant")
        }
        bucket = fields.bucket
        path = fields.path
        source = fields.source
        expires = nil
        self.target = target
    }

    /// The bucket and path, checked by the rules of a job's object.
    private static func check(bucket: String, path: String) throws(VariantsError) {
        _ = try ObjectRequest(checking: bucket, path: path)
    }

    /// The `POST` body's scalar fields as sent, before validation; `transforms` is read by the options'
    /// reader; unknown keys are refused.
    private struct Fields: Decodable {
        var bucket: String
        var path: String
        var source: String
        var hasTransforms: Bool
        var variant: String?

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case bucket, path, source, transforms, variant
        }

        init(from decoder: any Decoder) throws {
            try decoder.refuseUnknownKeys(CodingKeys.self, in: "request")
            let container = try decoder.container(keyedBy: CodingKeys.self)
            bucket = try container.decode(String.self, forKey: .bucket)
            path = try container.decode(String.self, forKey: .path)
            source = try container.decode(String.self, forKey: .source)
            let isNull = try container.contains(.transforms) && container.decodeNil(forKey: .transforms)
            hasTransforms = container.contains(.transforms) && !isNull
            variant = try container.decodeIfPresent(String.self, forKey: .variant)
        }
    }

    /// The query's name/value pairs in order, percent-decoded (`+` is a space, as in forms). A pair without a
    /// name (`?=600`) is kept, so that it is refused as an unknown parameter rather than ignored.
    static func parameters(of target: String) -> [(name: String, value: String)] {
        guard let mark = target.firstIndex(of: "?") else { return [] }
        return target[target.index(after: mark)...].split(separator: "&").map { pair in
            let name = pair.prefix { $0 != "=" }
            let value = pair.dropFirst(name.count + 1)
            func decoded(_ text: Substring) -> String {
                guard text.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else {
                    return String(text)
                }
                let spaced = text.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            return (decoded(name), decoded(value))
        }
    }
}
