/// The C libraries this build runs on and the formats it reads and writes, for `--version` and metrics.
public enum BuildInfo {
    public static var libvipsVersion: String { Vips.version }
    /// The libvips file this process runs on (setup builds its own into /opt/variantd).
    public static var libvipsPath: String { Vips.libraryPath }
    public static var libheifVersion: String { HeifContainer.version }
    /// The FFmpeg libraries videos' poster frames are read with, each with its version
    /// (`libavformat 59.27.100, …`).
    public static var ffmpegVersions: String {
        FFmpeg.versions.map { "\($0.library) \($0.version)" }.joined(separator: ", ")
    }

    /// Media types turned into pixels.
    public static let decodes: [MediaType] = MediaType.allCases.filter(\.isDecodable)

    /// Formats renditions are written in.
    public static let encodes: [OutputFormat] = OutputFormat.allCases.filter { $0.writtenType != nil }
}
