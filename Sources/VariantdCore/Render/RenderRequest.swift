import Foundation
import Variants

/// A `GET`/`HEAD /v1/render/<bucket>/<object path>?<options>` read at the edge: where the object is, which
/// options were sent (decoded, in order), and the signing parameters set apart.
struct RenderRequest: Sendable {
    static let prefix = "/v1/render/"

    let bucket: String
    /// The object's path inside the bucket; its bytes are at `<root>/<bucket>/<path>`.
    let path: String
    /// The transform options, without `variant`, `expires` and `signature`.
    let options: [(name: String, value: String)]
    /// `?variant=<name>`: the bucket's declared rendition instead of options.
    let variant: String?
    let expires: String?
    let target: String

    /// - Throws: `400 invalid_request` for a bucket or path out of its rule, `400 invalid_transform` for
    ///   `variant` beside options or given twice.
    init(path decodedPath: String, target: String) throws(VariantsError) {
        let location = decodedPath.dropFirst(Self.prefix.count)
        let bucket = String(location.prefix { $0 != "/" })
        let path = String(location.dropFirst(bucket.count + 1))
        guard BucketSpec.isValidName(bucket) else {
            throw VariantsError(.invalidRequest, "bucket: expected \(BucketSpec.nameRule)")
        }
        guard (1...1024).contains(path.utf8.count),
            !path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
        else {
            throw VariantsError(.invalidRequest, "path: expected 1…1024 bytes without control characters")
        }
        try StoreRoot.checkRelative(bucket + "/" + path)
        var options: [(name: String, value: String)] = []
        var variant: String?
        var expires: String?
        for (name, value) in Self.parameters(of: target) {
            switch name {
            case "signature": continue
            case "expires": expires = value
            case "variant":
                guard variant == nil else {
                    throw .invalidTransform(path: "variant", expected: "each key once", got: "a second \"variant\"")
                }
                variant = value
            default: options.append((name, value))
            }
        }
        if variant != nil, let first = options.first {
            throw .invalidTransform(
                path: "variant", expected: "no other option beside a declared variant", got: "\"\(first.name)\"")
        }
        self.bucket = bucket
        self.path = path
        self.options = options
        self.variant = variant
        self.expires = expires
        self.target = target
    }

    /// Where the object's bytes live, relative to the store root.
    var source: String { bucket + "/" + path }

    /// The query's name/value pairs in order, percent-decoded (`+` is a space, as in forms).
    static func parameters(of target: String) -> [(name: String, value: String)] {
        guard let mark = target.firstIndex(of: "?") else { return [] }
        return target[target.index(after: mark)...].split(separator: "&").compactMap { pair in
            let name = pair.prefix { $0 != "=" }
            let value = pair.dropFirst(name.count + 1)
            func decoded(_ text: Substring) -> String {
                let spaced = text.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            return name.isEmpty ? nil : (decoded(name), decoded(value))
        }
    }
}
