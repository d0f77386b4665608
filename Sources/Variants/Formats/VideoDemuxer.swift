/// The FFmpeg demuxers we open videos with, each by name; no other demuxer ever reads user bytes (the
/// container is never probed for).
enum VideoDemuxer: Sendable, CaseIterable {
    /// MP4 and QuickTime (ISO base media boxes).
    case mov
    /// WebM and Matroska (EBML elements).
    case matroska

    /// FFmpeg's short name of the demuxer, also its whole format allow-list.
    var name: String {
        switch self {
        case .mov: "mov"
        case .matroska: "matroska"
        }
    }
}
