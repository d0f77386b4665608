import Variants

/// The options of query strings already read, so a cache hit does not run the declaration's validator and
/// hash the canonical settings again: clients use a few fixed sizes. Only options read without error and
/// without `format=auto` are kept, since the latter's answer depends on the `Accept` header too, and only
/// short ones: any client may spell a size at length (`width=64.000…`), and 4,096 URLs of 50 KB each would
/// hold 200 MB.
final class TransformMemo: Sendable {
    private struct Options: Hashable {
        var names: [String]
        var values: [String]
    }

    private let entries: BoundedMemo<Options, RenditionOutput>

    /// The most bytes of names and values a remembered query has: every option at its longest spelled
    /// plainly fits, and the whole memo stays within a few megabytes.
    static let maximumRememberedBytes = 512

    init(capacity: Int = 4096) {
        entries = BoundedMemo(capacity: capacity)
    }

    /// How many query forms are remembered.
    var count: Int { entries.count }

    /// The rendition the options ask for, with its spec key: remembered, or read (and remembered unless it
    /// varies with `Accept`).
    ///
    /// A transform with a watermark is never remembered: the bucket's watermark of that name is another file
    /// in another bucket, or after a reload.
    ///
    /// - Throws: `400 invalid_transform`, as `Transform(query:accept:watermarks:)`.
    func output(
        _ options: [(name: String, value: String)], accept: String?, watermarks: [Watermark] = []
    ) throws(VariantsError) -> (output: RenditionOutput, variesWithAccept: Bool) {
        let key = Options(names: options.map(\.name), values: options.map(\.value))
        if let remembered = entries[key] { return (remembered, false) }
        let transform = try Transform(query: options, accept: accept, watermarks: watermarks)
        let output = RenditionOutput(transform.spec, wanted: true)
        let bytes = options.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count }
        if !transform.variesWithAccept, transform.spec.watermark == nil, bytes <= Self.maximumRememberedBytes
        {
            entries.remember(output, for: key)
        }
        return (output, transform.variesWithAccept)
    }
}
