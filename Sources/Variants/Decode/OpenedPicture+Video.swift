extension OpenedPicture {
    /// Reads a video container's header with its one demuxer: its first video stream, in a codec decoded
    /// here and within the pixel limit. A container cut short is refused before FFmpeg reads it, as a HEIF
    /// one is: a poster that happens to lie before the cut would make a partial upload look whole.
    static func openVideo(_ bytes: [UInt8], type: MediaType, demuxer: VideoDemuxer, limits: Limits)
        throws(VariantsError) -> VideoStream
    {
        if ContainerCheck.isTruncated(bytes, as: type) {
            throw .unreadable(.truncated, "the \(type.mimeType) container runs past the end of the file")
        }
        let info: FFmpeg.StreamInfo
        do {
            info = try FFmpeg.streamInfo(bytes, demuxer: demuxer)
        } catch {
            switch error.step {
            case .stream:
                throw .unreadable(.unsupportedFeature, "the \(type.mimeType) container holds no video stream")
            default:
                throw .unreadable(
                    .corrupt, "the \(type.mimeType) container cannot be read (\(error.error.message))")
            }
        }
        return try VideoStream(info, limits: limits)
    }

    /// Whether a whole video container holds no video stream at all (an audio recording in MP4 or WebM): such
    /// an object is reported, not decoded. A cut one, and any other failure, is left to `openVideo` to
    /// classify: a container cut before its track list holds no stream either.
    static func holdsNoVideo(_ bytes: [UInt8], type: MediaType, demuxer: VideoDemuxer) -> Bool {
        guard !ContainerCheck.isTruncated(bytes, as: type) else { return false }
        do {
            _ = try FFmpeg.streamInfo(bytes, demuxer: demuxer)
            return false
        } catch {
            return error.step == .stream
        }
    }

    /// The poster frame (`VideoStream.posterTime`), its pixels unscaled (an HDR one tone-mapped from 16 bits a
    /// sample), to be turned as the display matrix says.
    static func poster(_ bytes: [UInt8], demuxer: VideoDemuxer, stream: VideoStream, maxPixels: Int)
        throws(BackendError) -> VipsImage
    {
        let image: VipsImage
        let (decoder, time) = (stream.codec.decoder, stream.posterTime)
        do {
            if let toneMapping = stream.toneMapping {
                image = try FFmpeg.poster(
                    bytes, demuxer: demuxer, decoder: decoder, at: time, maxPixels: maxPixels
                ) { samples, values, output in
                    toneMapping.map(samples, values, into: output)
                }
            } else {
                image = try FFmpeg.poster(
                    bytes, demuxer: demuxer, decoder: decoder, at: time, maxPixels: maxPixels)
            }
        } catch {
            throw error.error
        }
        image.setOrientation(stream.orientation)
        return image
    }
}
