internal import CFFmpegShims
internal import Glibc

/// The one door to FFmpeg: what a video container says about its first video stream, and its poster frame.
///
/// Each call opens the bytes afresh from memory with the one demuxer named, so no pointer into them outlives
/// the call; the container's header is small beside the frame, and reading it again costs little. Decoding
/// video can abort inside FFmpeg on hostile files, so callers run it in the decoder child process.
enum FFmpeg {
    /// What the container says about its first video stream; nothing is decoded to learn it.
    struct StreamInfo: Sendable, Equatable {
        /// FFmpeg's name of the codec (`h264`, `hevc`, `vp9`, `av1`, …).
        var codec: String
        /// The coded size the container declares.
        var width: Int
        var height: Int
        /// Pixel width over height; 1 when the container does not say.
        var sampleAspectRatio: Double
        /// Degrees anticlockwise the picture turns to be displayed, after `mirrored`.
        var rotation: Double
        /// The display matrix mirrors the picture left to right.
        var mirrored: Bool
        /// Seconds; 0 when the container does not say.
        var duration: Double
        /// The colour primaries and transfer the container declares, as ISO/IEC 23091-2 code points.
        var primaries: Int
        var transfer: Int
    }

    /// Silences FFmpeg's log once: failures come back as `BackendError`s.
    private static let started: Void = vf_start()

    /// libavformat, libavcodec, libavutil and libswscale, with the version each runs at.
    static var versions: [(library: String, version: String)] {
        var numbers: [UInt32] = [0, 0, 0, 0]
        vf_versions(&numbers)
        return zip(["libavformat", "libavcodec", "libavutil", "libswscale"], numbers).map {
            ($0, "\($1 >> 16).\($1 >> 8 & 0xFF).\($1 & 0xFF)")
        }
    }

    /// Reads the container's header with `demuxer`.
    static func streamInfo(_ bytes: [UInt8], demuxer: VideoDemuxer) throws(Failure) -> StreamInfo {
        try withInput(bytes, demuxer) { _, info in
            let sampleAspect =
                info.sar_num > 0 && info.sar_den > 0 ? Double(info.sar_num) / Double(info.sar_den) : 1
            return StreamInfo(
                codec: CCopy.text(ofField: info.codec), width: Int(info.width), height: Int(info.height),
                sampleAspectRatio: sampleAspect, rotation: info.rotation, mirrored: info.mirrored != 0,
                duration: info.duration, primaries: Int(info.primaries), transfer: Int(info.transfer))
        }
    }

    /// Decodes the poster frame, the first keyframe at or after `at` seconds (the first frame when `at` is
    /// nil or no keyframe comes after it), with the named decoder on one thread, to 8-bit RGB in a libvips
    /// image that owns the pixels.
    static func poster(
        _ bytes: [UInt8], demuxer: VideoDemuxer, decoder: String, at seconds: Double?, maxPixels: Int
    ) throws(Failure) -> VipsImage {
        let pixels = try decodePoster(
            bytes, demuxer: demuxer, decoder: decoder, at: seconds, maxPixels: maxPixels, bits: 8)
        return try adopt(pixels.data, width: pixels.width, height: pixels.height, release: vf_pixels_release)
    }

    /// The same poster frame as RGB of 16 bits a sample, made 8-bit by `map` (as
    /// `HeifContainer.mappedToEightBits` does for HEIF): an HDR signal is tone-mapped from those, not from an
    /// 8-bit reduction of it. The 16-bit samples are freed when it returns.
    static func poster(
        _ bytes: [UInt8], demuxer: VideoDemuxer, decoder: String, at seconds: Double?, maxPixels: Int,
        mappedBy map: (HeifContainer.CodedSamples, LentSamples<UInt16>, EightBitSamples) -> Void
    ) throws(Failure) -> VipsImage {
        let coded = try decodePoster(
            bytes, demuxer: demuxer, decoder: decoder, at: seconds, maxPixels: maxPixels, bits: 16)
        defer { vf_pixels_release(coded.data) }
        let count = coded.width * coded.height * 3
        let words = LentSamples<UInt16>(coded.data, count: count)
        let samples = HeifContainer.CodedSamples(
            values: .words(words), width: coded.width, height: coded.height, bands: 3, bits: 16)
        guard let output = malloc(max(1, count)) else {
            throw Failure(
                step: .convert, error: BackendError(call: "ffmpeg_convert", message: "out of memory"))
        }
        map(samples, words, EightBitSamples(output))
        return try adopt(output, width: coded.width, height: coded.height, release: { free($0) })
    }

    /// Decodes the poster to RGB of `bits` (8 or 16) a sample; the pixels are the caller's to release with
    /// `vf_pixels_release`.
    private static func decodePoster(
        _ bytes: [UInt8], demuxer: VideoDemuxer, decoder: String, at seconds: Double?, maxPixels: Int,
        bits: Int
    ) throws(Failure) -> (data: UnsafeMutableRawPointer, width: Int, height: Int) {
        try withInput(bytes, demuxer) { (input, _) throws(Failure) in
            var pixels = vf_pixels()
            var error = vf_error()
            let status = decoder.withCString { name in
                var options = vf_poster_options(
                    decoder: name, at: seconds ?? -1, max_pixels: Int64(clamping: maxPixels),
                    bits: Int32(bits))
                return vf_decode_poster(input, &options, &pixels, &error)
            }
            guard status == 0, let data = pixels.data else {
                vf_pixels_release(pixels.data)
                throw Failure(error)
            }
            return (data, Int(pixels.width), Int(pixels.height))
        }
    }

    /// Hands RGB pixels to libvips, which frees them with `release` when the image closes.
    private static func adopt(
        _ pixels: UnsafeMutableRawPointer, width: Int, height: Int,
        release: @convention(c) (UnsafeMutableRawPointer?) -> Void
    ) throws(Failure) -> VipsImage {
        do {
            return try VipsImage.adopting(
                pixels: pixels, width: width, height: height, bands: 3, release: release, owner: pixels)
        } catch {
            throw Failure(step: .convert, error: error)
        }
    }

    /// Opens the bytes, runs `body` on the open input, and closes it.
    private static func withInput<T>(
        _ bytes: [UInt8], _ demuxer: VideoDemuxer,
        _ body: (OpaquePointer, vf_stream_info) throws(Failure) -> T
    ) throws(Failure) -> T {
        _ = started
        return try bytes.withUnsafeBytes { buffer in
            Result { () throws(Failure) in
                var input: OpaquePointer?
                var info = vf_stream_info()
                var error = vf_error()
                guard vf_open(buffer.baseAddress, buffer.count, demuxer.name, &input, &info, &error) == 0,
                    let input
                else { throw Failure(error) }
                defer { vf_close(input) }
                return try body(input, info)
            }
        }.get()
    }

    /// A failed call: the step that failed decides what it means, FFmpeg's words are for diagnostics.
    struct Failure: Error {
        enum Step: Int32 {
            case open = 1
            case stream, decoder, packet, decode, convert
        }

        var step: Step
        var error: BackendError

        init(step: Step, error: BackendError) {
            self.step = step
            self.error = error
        }

        fileprivate init(_ error: vf_error) {
            step = Step(rawValue: error.step) ?? .decode
            self.error = BackendError(call: "ffmpeg_\(step)", message: CCopy.text(ofField: error.message))
        }
    }
}
