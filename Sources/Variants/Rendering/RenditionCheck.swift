/// Reads an encoded rendition back before it is reported: it must sniff as its format and have the
/// planned size. A mismatch is our bug, never the input's, so it fails loudly as an internal error.
enum RenditionCheck {
    static func verify(_ bytes: [UInt8], as expected: MediaType, plan: RenderPlan) throws(VariantsError) {
        let sniffed = Sniffer.sniff(bytes.prefix(Sniffer.prefixLength))
        guard sniffed == expected else {
            throw VariantsError(
                .internalError, "a \(expected.mimeType) rendition sniffs as \(sniffed?.mimeType ?? "nothing")"
            )
        }
        let size: (width: Int, height: Int)
        do {
            size = try readSize(bytes, type: expected)
        } catch {
            throw VariantsError(
                .internalError, "a \(expected.mimeType) rendition cannot be read back: \(error)")
        }
        guard size == (plan.outputWidth, plan.outputHeight) else {
            throw VariantsError(
                .internalError,
                "a rendition is \(size.width)×\(size.height), planned \(plan.outputWidth)×\(plan.outputHeight)"
            )
        }
    }

    private static func readSize(_ bytes: [UInt8], type: MediaType) throws(BackendError) -> (
        width: Int, height: Int
    ) {
        switch type.facts.decoder {
        case .heif:
            let info = try HeifContainer(bytes: bytes, limits: verificationLimits).info
            return (info.width, info.height)
        case .vips(let loader):
            let header = try VipsImage.load(loader, bytes: bytes).header
            return (header.width, header.height)
        case .video, nil:
            throw BackendError(call: "verify", message: "\(type.mimeType) is not a rendition format")
        }
    }

    /// Our own renditions are at most 4096 pixels a side.
    private static let verificationLimits = HeifContainer.Limits(
        maxPixels: 4096 * 4096, maxMemoryBlock: 256 << 20, maxItems: 100, maxTiles: 100, threads: 1)
}
