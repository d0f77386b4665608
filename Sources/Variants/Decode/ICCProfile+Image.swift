extension ICCProfile {
    /// The profile attached to `image` when it can be used on its pixels; nil when there is none, or when it
    /// is not an ICC profile at all, lcms cannot read it, or it describes other pixels (grey on RGB, RGB on
    /// grey or CMYK, CMYK on RGB).
    static func usable(in image: VipsImage) -> ICCProfile? {
        guard image.iccProfileFits else { return nil }
        return image.iccProfile.flatMap(ICCProfile.init)
    }
}
