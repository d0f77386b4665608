import Variants

/// The options of query strings already read, so a cache hit does not run the declaration's validator and
/// hash the canonical settings again: clients use a few fixed sizes. Only options read without error and
/// without `format=auto` are kept, since the latter's answer depends on the `Accept` header too.
final class TransformMemo: Sendable {
    /// A transform as read, with the spec key that names its renditions.
    struct Entry: Sendable {
        var spec: VariantSpec
        var specKey: String
    }

    private struct Options: Hashable {
        var names: [String]
        var values: [String]
    }

    private let entries: BoundedMemo<Options, Entry>

    init(capacity: Int = 4096) {
        entries = BoundedMemo(capacity: capacity)
    }

    /// The transform the options ask for: remembered, or read (and remembered unless it varies with `Accept`).
    ///
    /// - Throws: `400 invalid_transform`, as `Transform(query:accept:)`.
    func entry(_ options: [(name: String, value: String)], accept: String?) throws(VariantsError)
        -> (entry: Entry, variesWithAccept: Bool)
    {
        let key = Options(names: options.map(\.name), values: options.map(\.value))
        if let remembered = entries[key] { return (remembered, false) }
        let transform = try Transform(query: options, accept: accept)
        let entry = Entry(spec: transform.spec, specKey: RenditionKey.specKey(of: transform.spec))
        if !transform.variesWithAccept { entries.remember(entry, for: key) }
        return (entry, transform.variesWithAccept)
    }
}
