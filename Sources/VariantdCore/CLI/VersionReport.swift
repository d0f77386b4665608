import Variants

/// What `variantd --version` prints: our version, the C libraries underneath, and the formats.
enum VersionReport {
    static let version = "0.1.0"

    static var text: String {
        """
        variantd \(version)
        libvips \(BuildInfo.libvipsVersion) (\(BuildInfo.libvipsPath)), libheif \(BuildInfo.libheifVersion)
        \(BuildInfo.ffmpegVersions)
        decodes: \(BuildInfo.decodes.map(\.mimeType).joined(separator: ", "))
        encodes: \(BuildInfo.encodes.map(\.rawValue).joined(separator: ", "))
        """
    }
}
