/// The synthetic images behind the hashes that the JavaScript reference printed under Node 20
/// (the golden list in `oracle.py`), rebuilt pixel for pixel.
enum GoldenImage: String, CaseIterable, Sendable {
    case solid
    case ramp
    case rampAlpha

    func pixels(width: Int, height: Int) -> [UInt8] {
        var rgba: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let red = UInt8(x * 255 / max(1, width - 1))
                let green = UInt8(y * 255 / max(1, height - 1))
                let blue = UInt8(x * y % 256)
                switch self {
                case .solid: rgba += [200, 100, 50, 255]
                case .ramp: rgba += [red, green, blue, 255]
                case .rampAlpha: rgba += [red, green, blue, UInt8((x * 37 + y * 11) % 256)]
                }
            }
        }
        return rgba
    }

    /// Width, height, image and the base64 hash the JavaScript reference produced for it.
    static let vectors: [(width: Int, height: Int, image: GoldenImage, hash: String)] = [
        (1, 1, .solid, "Hcs6zzII9wiIh4hwj3CI+AiIgIAICIgA"),
        (100, 100, .ramp, "HwgKNxpwdndwd3d3d2d3d3d3BwiIgH8H"),
        (100, 100, .rampAlpha, "HwiGHQwHcHZwd3dnd4CACPeHJihndWBRBw=="),
        (37, 59, .ramp, "XggOJBpwBnd3h3Z4d3iwkAv4eA=="),
        (59, 37, .rampAlpha, "nviFE44HcHZwd3ewkAv3eId3ZnZ3B4Y="),
        (5, 14, .ramp, "lgsOMyCAgYiIh4iHgHEI6Hg="),
        (1, 2, .rampAlpha, "1QuoA38ACIh4iAgIiHePiAj3go2H2Ag="),
        (64, 64, .solid, "HcsCBwA6WnZ5iHh4d4iId4h2cGCYj3YJ"),
    ]
}
