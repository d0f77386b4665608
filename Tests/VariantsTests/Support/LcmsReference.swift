import CLcms2
import Foundation

@testable import Variants

/// lcms called directly, independently of libvips: it makes the test profiles and converts a picture's own
/// pixels to sRGB, the reference a rendition is compared with.
enum LcmsReference {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// lcms pixel formats, spelt out because Swift does not import lcms' format macros: the profile's colour
    /// space, its channels, extra (alpha) channels and bytes per sample.
    private static func format(_ profile: cmsHPROFILE, bands: Int, bytes: Int) -> UInt32 {
        let space = cmsGetColorSpace(profile)
        let channels = cmsChannelsOf(space)
        let extra = UInt32(max(0, bands - Int(channels)))
        return UInt32(_cmsLCMScolorSpace(space)) << 16 | extra << 7 | channels << 3 | UInt32(bytes)
    }

    /// Converts device pixels (grey, RGB or CMYK, 8 or 16 bits in native order, rows packed) through `profile` into 8-bit sRGB with
    /// the rendering intent the profile's header names, as lcms' own sRGB profile defines it.
    static func toSRGB(_ pixels: [UInt8], bands: Int, bytesPerSample: Int, profile: [UInt8]) throws -> [UInt8]
    {
        guard
            let source = profile.withUnsafeBytes({ cmsOpenProfileFromMem($0.baseAddress, UInt32($0.count)) })
        else { throw Failure(description: "lcms cannot open the profile") }
        defer { cmsCloseProfile(source) }
        guard let srgb = cmsCreate_sRGBProfile() else { throw Failure(description: "no lcms sRGB profile") }
        defer { cmsCloseProfile(srgb) }
        let intent = cmsGetHeaderRenderingIntent(source)
        guard
            let transform = cmsCreateTransform(
                source, format(source, bands: bands, bytes: bytesPerSample), srgb,
                format(srgb, bands: 3, bytes: 1), intent, 0)
        else { throw Failure(description: "lcms cannot build the transform") }
        defer { cmsDeleteTransform(transform) }
        let count = pixels.count / bands / bytesPerSample
        var output = [UInt8](repeating: 0, count: count * 3)
        pixels.withUnsafeBytes { input in
            output.withUnsafeMutableBytes {
                cmsDoTransform(transform, input.baseAddress, $0.baseAddress, UInt32(count))
            }
        }
        return output
    }

    /// A matrix/TRC RGB profile from chromaticities and a tone curve (a pure gamma, or sRGB's when nil).
    static func rgbProfile(
        white: (Double, Double), red: (Double, Double), green: (Double, Double), blue: (Double, Double),
        gamma: Double?
    ) throws -> [UInt8] {
        var whitePoint = cmsCIExyY(x: white.0, y: white.1, Y: 1)
        var primaries = cmsCIExyYTRIPLE(
            Red: cmsCIExyY(x: red.0, y: red.1, Y: 1), Green: cmsCIExyY(x: green.0, y: green.1, Y: 1),
            Blue: cmsCIExyY(x: blue.0, y: blue.1, Y: 1))
        let curve = try toneCurve(gamma)
        defer { cmsFreeToneCurve(curve) }
        var curves: [OpaquePointer?] = [curve, curve, curve]
        let profile = curves.withUnsafeMutableBufferPointer {
            cmsCreateRGBProfile(&whitePoint, &primaries, $0.baseAddress)
        }
        return try saved(profile)
    }

    /// A grey profile with a D50 white and a pure gamma.
    static func greyProfile(gamma: Double) throws -> [UInt8] {
        var whitePoint = cmsCIExyY(x: 0.3457, y: 0.3585, Y: 1)
        let curve = try toneCurve(gamma)
        defer { cmsFreeToneCurve(curve) }
        return try saved(cmsCreateGrayProfile(&whitePoint, curve))
    }

    private static func toneCurve(_ gamma: Double?) throws -> OpaquePointer {
        let curve: OpaquePointer?
        if let gamma {
            curve = cmsBuildGamma(nil, gamma)
        } else {
            let parameters = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
            curve = parameters.withUnsafeBufferPointer { cmsBuildParametricToneCurve(nil, 4, $0.baseAddress) }
        }
        guard let curve else { throw Failure(description: "lcms cannot build the tone curve") }
        return curve
    }

    private static func saved(_ profile: cmsHPROFILE?) throws -> [UInt8] {
        guard let profile else { throw Failure(description: "lcms cannot build the profile") }
        defer { cmsCloseProfile(profile) }
        var length: UInt32 = 0
        guard cmsSaveProfileToMem(profile, nil, &length) != 0 else {
            throw Failure(description: "no profile size")
        }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        let saved = bytes.withUnsafeMutableBytes { cmsSaveProfileToMem(profile, $0.baseAddress, &length) }
        guard saved != 0 else { throw Failure(description: "lcms cannot save the profile") }
        return bytes
    }
}
