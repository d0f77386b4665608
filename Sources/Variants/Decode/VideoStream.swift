/// A video's first video stream as its poster frame shows: the codec, the size its pixels are shown at, how
/// it turns to be displayed, and how long it lasts. Read from the container alone, before any frame is
/// decoded.
struct VideoStream: Sendable, Equatable {
    var codec: VideoCodec
    /// The size shown before the turn: the coded size with the sample aspect ratio applied to the width.
    var width: Int
    var height: Int
    /// The display matrix as an EXIF orientation (1–8), turned to the nearest quarter.
    var orientation: Int
    /// Seconds; 0 when the container does not say.
    var duration: Double
    /// An HDR stream (its transfer PQ or HLG, as the container declares) is tone-mapped as an HDR HEIF is.
    var toneMapping: ToneMapping?

    /// The poster is the first keyframe at or after this many seconds (a clip's first second is often a fade
    /// from black or a shaky start), or the first frame of a shorter clip.
    static let posterTime = 1.0

    /// Sample aspect ratios beyond this (either way) are taken as a mistake and ignored, as square pixels.
    static let largestPixelAspect = 8.0

    /// Refuses a codec not decoded here, and a coded size over the pixel limit before anything is allocated.
    init(_ info: FFmpeg.StreamInfo, limits: Limits) throws(VariantsError) {
        guard let codec = VideoCodec(rawValue: info.codec) else {
            throw .unreadable(
                .unsupportedFeature, "the video is coded as '\(info.codec)', which is not decoded here")
        }
        try limits.checkPixels(width: info.width, height: info.height)
        self.codec = codec
        let aspect = info.sampleAspectRatio
        let square = aspect < 1 / Self.largestPixelAspect || aspect > Self.largestPixelAspect
        width = square ? info.width : max(1, Int((Double(info.width) * aspect).rounded()))
        height = info.height
        orientation = Self.orientation(rotation: info.rotation, mirrored: info.mirrored)
        duration = info.duration.isFinite ? max(0, info.duration) : 0
        toneMapping = ToneMapping(
            nclx: HeifContainer.NCLX(primaries: info.primaries, transfer: info.transfer, chromaticities: []))
    }

    /// Where the poster is taken from: nil for the first frame of a clip shorter than `posterTime`.
    var posterTime: Double? { duration >= Self.posterTime ? Self.posterTime : nil }

    /// The EXIF orientation that shows a picture as a display matrix turning it `rotation` degrees
    /// anticlockwise, after mirroring it left to right when `mirrored`.
    static func orientation(rotation: Double, mirrored: Bool) -> Int {
        guard rotation.isFinite else { return mirrored ? 2 : 1 }
        let quarters = Int((-rotation / 90).rounded())
        let clockwise = ((quarters % 4) + 4) % 4
        return mirrored ? [2, 7, 4, 5][clockwise] : [1, 6, 3, 8][clockwise]
    }
}
