import ThumbHash

/// The ThumbHash placeholder of a decoded picture, from a ≤ 100 × 100 RGBA rendition of the same decode.
enum ThumbHashRendition {
    /// ThumbHash's own input bound.
    static let maxSide = 100

    /// The size the rendition is drawn at: the picture fitted inside 100 × 100, at least 1 pixel a side.
    static func size(width: Int, height: Int) -> (width: Int, height: Int) {
        let scale = min(1, Double(maxSide) / Double(max(width, height)))
        return (
            max(1, Int((Double(width) * scale).rounded())), max(1, Int((Double(height) * scale).rounded()))
        )
    }

    /// The placeholder and the dominant colour (`DominantColour`), both from the one RGBA rendition made
    /// from the smallest reduction of the decode that is still large enough.
    static func encode(from ladder: ResizeLadder) throws(BackendError) -> (
        thumbhash: String, dominantColour: String?
    ) {
        let (width, height) = size(width: ladder.base.width, height: ladder.base.height)
        let small = try ladder.source(width: width, height: height).resized(toWidth: width, height: height)
        let rgba = rgbaPixels(try small.pixelBytes(), bands: small.header.bands)
        do {
            let hash = try ThumbHash.encode(width: small.width, height: small.height, rgba: rgba).base64
            return (hash, DominantColour.hex(rgba: rgba))
        } catch {
            throw BackendError(call: "thumbhash", message: "\(error)")
        }
    }

    /// Widens grey, grey+alpha and RGB pixels to the RGBA that ThumbHash takes.
    private static func rgbaPixels(_ pixels: [UInt8], bands: Int) -> [UInt8] {
        guard bands != 4 else { return pixels }
        let count = pixels.count / bands
        var rgba = [UInt8](repeating: 255, count: count * 4)
        for pixel in 0..<count {
            let source = pixel * bands
            let target = pixel * 4
            if bands >= 3 {
                rgba[target] = pixels[source]
                rgba[target + 1] = pixels[source + 1]
                rgba[target + 2] = pixels[source + 2]
            } else {
                rgba[target] = pixels[source]
                rgba[target + 1] = pixels[source]
                rgba[target + 2] = pixels[source]
                if bands == 2 { rgba[target + 3] = pixels[source + 1] }
            }
        }
        return rgba
    }
}
