/// libFuzzer entry for the sniffer and the container checks: any bytes, under any name or declared type,
/// must yield a type, a truncation verdict, a PNG checksum verdict and a PDF encryption verdict without trapping; and our own reading of
/// HEIF items (references, item data, properties, overlays) an answer or a typed error.
@_cdecl("LLVMFuzzerTestOneInput")
public func sniffOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let sniffed = Sniffer.sniff(bytes[...])
    let name = bytes.prefix(8).map { String(UnicodeScalar($0 % 95 + 32)) }.joined()
    _ = Sniffer.resolve(sniffed: sniffed, declared: name, fileName: "upload.\(name)")
    for type in MediaType.allCases {
        _ = ContainerCheck.isTruncated(bytes, as: type)
    }
    _ = ContainerCheck.hasBadChecksum(bytes, as: .png)
    _ = ContainerCheck.isEncrypted(bytes, as: .pdf)
    _ = JPEGStructure(bytes).unsupportedFeature
    _ = HEIFReferenceRepair.repaired(bytes)
    _ = try? HEIFOverlay(composing: bytes, maxPlacements: 4_000)
    if let meta = HEIFMeta(bytes) {
        for item in meta.items.prefix(16) {
            _ = meta.data(of: item.id)
            _ = meta.properties(of: item.id)
        }
    }
    return 0
}
