/// The one decode of an object: pixels scaled to what the renditions need, and the picture's true size.
struct DecodedPicture {
    /// 8-bit sRGB, oriented, in memory.
    let image: VipsImage
    /// The displayed size of the full picture, which `image` may be a reduction of.
    let width: Int
    let height: Int
    /// The picture carried a colour profile that could not be used on its pixels; they were converted as if
    /// it had none.
    let profileIgnored: Bool
    /// The picture was HDR (PQ or HLG) and was tone-mapped to SDR.
    let toneMapped: ToneMapping.Transfer?
    /// Who made the picture and who holds its rights, as its EXIF and XMP say;
    /// written only into renditions that keep it.
    var rights: RightsMetadata?
    /// Every frame of an animated GIF or WebP, each like `image`, when an animated rendition was asked for.
    var animation: Animation?

    struct Animation {
        var frames: [VipsImage]
        /// Milliseconds each frame shows.
        var delays: [Int]
        /// Times the animation plays; 0 is forever.
        var loop: Int

        /// How long each of `frames` frames shows, from the delays the file declares (there may be fewer):
        /// browsers show a frame declared 10 ms or shorter, or not at all, for 100 ms; so do we.
        static func shownDelays(_ declared: [Int], frames: Int) -> [Int] {
            (0..<frames).map { $0 < declared.count && declared[$0] > 10 ? declared[$0] : 100 }
        }
    }
}
