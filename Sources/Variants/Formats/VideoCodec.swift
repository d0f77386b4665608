/// The video codecs whose poster frames are decoded, each by one FFmpeg decoder on one thread; a stream in
/// any other codec is refused before a decoder opens.
enum VideoCodec: String, Sendable, CaseIterable {
    /// Spelled as FFmpeg names them (`FFmpeg.StreamInfo.codec`), which the completion metadata reports.
    case h264, hevc, vp9, av1

    /// The FFmpeg decoder that decodes it: FFmpeg's own, but dav1d for AV1 (FFmpeg's own AV1 decoder needs
    /// a hardware decoder).
    var decoder: String {
        switch self {
        case .h264, .hevc, .vp9: rawValue
        case .av1: "libdav1d"
        }
    }
}
