/// A HEIF container whose item references list one item twice — an `iovl` overlay placing the same tile at
/// two offsets, as in Nokia's conformance file C021 — is valid ISO/IEC 23008-12, but libheif 1.19 refuses the
/// whole file ("'iref' has double references"). When the displayed item is a coded image, its pixels do not
/// depend on any reference, so a copy of the file without references decodes the same picture (an overlay
/// displayed is composed by `HEIFOverlay` instead).
enum HEIFReferenceRepair {
    /// The repaired copy, or nil when the file has no repeated reference or its primary item is derived
    /// (a grid, overlay or identity item needs its references).
    static func repaired(_ bytes: [UInt8]) -> [UInt8]? {
        guard let meta = HEIFMeta(bytes), meta.hasRepeatedReference, let type = meta.primaryType,
            ["hvc1", "av01"].contains(type)
        else { return nil }
        return meta.withoutReferences()
    }
}
