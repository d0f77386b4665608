import Variants

/// The options of query strings already read, so a cache hit does not run the declaration's validator and
/// hash the canonical settings again: clients use a few fixed sizes. Only options read without error and
/// without `format=auto`, `width=auto` or `dpr=auto` are kept, since their answers depend on the `Accept`
/// header or the client hints too, and only short ones (each with and without `Save-Data`): any client may spell a size at length (`width=64.000…`), and 4,096 URLs of 50 KB each would
/// hold 200 MB.
final class TransformMemo: Sendable {
    private struct Options: Hashable {
        var names: [String]
        var values: [String]
        var saveData: Bool
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
    /// varies with `Accept` or the client hints), and the answer's `Vary`: the headers read, `Save-Data`
    /// always. The client hints are looked up only for options that may be `auto`.
    ///
    /// A transform with a watermark is never remembered: the bucket's watermark of that name is another file
    /// in another bucket, or after a reload.
    ///
    /// - Parameters:
    ///   - headers: The request's headers, by lower-case name.
    ///   - servedWidths: The bucket's `TransformScope.widths`, which a hinted width is rounded up to.
    /// - Throws: `400 invalid_transform`, as `Transform(query:accept:hints:watermarks:)`.
    func output(
        _ options: [(name: String, value: String)], headers: [String: String], servedWidths: [Int]? = nil,
        watermarks: [Watermark] = []
    ) throws(VariantsError) -> (output: RenditionOutput, vary: String) {
        let saveData = ClientHints.savesData(headers["save-data"])
        let key = Options(names: options.map(\.name), values: options.map(\.value), saveData: saveData)
        if let remembered = entries[key] { return (remembered, ClientHints.saveDataHeader) }
        var hints = ClientHints(saveData: saveData, servedWidths: servedWidths)
        if options.contains(where: { $0.value.contains("auto") }) {
            hints.width = headers["sec-ch-width"]
            hints.viewportWidth = headers["sec-ch-viewport-width"]
            hints.devicePixelRatio = headers["sec-ch-dpr"]
        }
        let transform = try Transform(
            query: options, accept: headers["accept"], hints: hints, watermarks: watermarks)
        let output = RenditionOutput(transform.spec, wanted: true)
        let bytes = options.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count }
        if !transform.variesWithAccept, transform.hintHeaders.isEmpty, transform.spec.watermark == nil,
            bytes <= Self.maximumRememberedBytes
        {
            entries.remember(output, for: key)
        }
        let vary =
            (transform.variesWithAccept ? ["Accept"] : []) + transform.hintHeaders + [
                ClientHints.saveDataHeader
            ]
        return (output, vary.joined(separator: ", "))
    }
}
