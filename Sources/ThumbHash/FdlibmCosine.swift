// The cosine below follows fdlibm 5.3 (s_cos.c, k_cos.c, k_sin.c, e_rem_pio2.c):
//   Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved.
//   Developed at SunPro, a Sun Microsystems, Inc. business.
//   Permission to use, copy, modify, and distribute this software is freely granted,
//   provided that this notice is preserved.

/// The cosine JavaScript engines compute (V8's `Math.cos` is fdlibm's algorithm).
///
/// glibc's `cos` differs from it in the last bit for a few percent of ThumbHash's arguments, and some hash
/// bits of flat or tiny images depend on that bit, so bit-exact output needs this exact function.
/// Only |x| < 2^19·π/2 is supported; ThumbHash's arguments stay below 7π.
enum FdlibmCosine {
    static func cos(_ x: Double) -> Double {
        let ix = highWord(x) & 0x7FFF_FFFF
        if ix <= 0x3FE9_21FB {
            return kernelCos(x, 0)
        }
        let (n, y0, y1) = reduce(x)
        switch n & 3 {
        case 0: return kernelCos(y0, y1)
        case 1: return -kernelSin(y0, y1)
        case 2: return -kernelCos(y0, y1)
        default: return kernelSin(y0, y1)
        }
    }

    private static func highWord(_ x: Double) -> Int32 {
        Int32(truncatingIfNeeded: Int64(bitPattern: x.bitPattern) >> 32)
    }

    private static func double(high: UInt32, low: UInt32) -> Double {
        Double(bitPattern: UInt64(high) << 32 | UInt64(low))
    }

    private static let c1 = 0x1.555555555554cp-5
    private static let c2 = -0x1.6c16c16c15177p-10
    private static let c3 = 0x1.a01a019cb1590p-16
    private static let c4 = -0x1.27e4f809c52adp-22
    private static let c5 = 0x1.1ee9ebdb4b1c4p-29
    private static let c6 = -0x1.8fae9be8838d4p-37
    private static let s1 = -0x1.5555555555549p-3
    private static let s2 = 0x1.111111110f8a6p-7
    private static let s3 = -0x1.a01a019c161d5p-13
    private static let s4 = 0x1.71de357b1fe7dp-19
    private static let s5 = -0x1.ae5e68a2b9cebp-26
    private static let s6 = 0x1.5d93a5acfd57cp-33
    private static let inversePiOver2 = 0x1.45f306dc9c883p-1
    private static let piOver2Part1 = 0x1.921fb54400000p+0
    private static let piOver2Tail1 = 0x1.0b4611a626331p-34
    private static let piOver2Part2 = 0x1.0b4611a600000p-34
    private static let piOver2Tail2 = 0x1.3198a2e037073p-69
    private static let piOver2Part3 = 0x1.3198a2e000000p-69
    private static let piOver2Tail3 = 0x1.b839a252049c1p-104

    /// High words of n·π/2 for n = 1...32: an argument this close to a multiple of π/2 needs the longer
    /// reduction.
    private static let multiplesOfPiOver2HighWords: [Int32] = [
        0x3FF9_21FB, 0x4009_21FB, 0x4012_D97C, 0x4019_21FB, 0x401F_6A7A, 0x4022_D97C,
        0x4025_FDBB, 0x4029_21FB, 0x402C_463A, 0x402F_6A7A, 0x4031_475C, 0x4032_D97C,
        0x4034_6B9C, 0x4035_FDBB, 0x4037_8FDB, 0x4039_21FB, 0x403A_B41B, 0x403C_463A,
        0x403D_D85A, 0x403F_6A7A, 0x4040_7E4C, 0x4041_475C, 0x4042_106C, 0x4042_D97C,
        0x4043_A28C, 0x4044_6B9C, 0x4045_34AC, 0x4045_FDBB, 0x4046_C6CB, 0x4047_8FDB,
        0x4048_58EB, 0x4049_21FB,
    ]

    /// cos(x + y) for |x| ≤ π/4, where y is the tail of a reduced argument.
    private static func kernelCos(_ x: Double, _ y: Double) -> Double {
        let ix = highWord(x) & 0x7FFF_FFFF
        if ix < 0x3E40_0000 {
            return 1
        }
        let z = x * x
        let r = z * (c1 + z * (c2 + z * (c3 + z * (c4 + z * (c5 + z * c6)))))
        if ix < 0x3FD3_3333 {
            return 1 - (0.5 * z - (z * r - x * y))
        }
        let qx = ix > 0x3FE9_0000 ? 0.28125 : double(high: UInt32(ix - 0x0020_0000), low: 0)
        let hz = 0.5 * z - qx
        let a = 1 - qx
        return a - (hz - (z * r - x * y))
    }

    /// sin(x + y) for |x| ≤ π/4 with a non-zero tail y (fdlibm's `iy == 1` path).
    private static func kernelSin(_ x: Double, _ y: Double) -> Double {
        let ix = highWord(x) & 0x7FFF_FFFF
        if ix < 0x3E40_0000 {
            return x
        }
        let z = x * x
        let v = z * x
        let r = s2 + z * (s3 + z * (s4 + z * (s5 + z * s6)))
        return x - ((z * (0.5 * y - v * r) - y) - v * s1)
    }

    /// x = n·π/2 + (y0 + y1) with |y0 + y1| ≤ π/4, for |x| < 2^19·π/2.
    private static func reduce(_ x: Double) -> (n: Int, y0: Double, y1: Double) {
        let hx = highWord(x)
        let ix = hx & 0x7FFF_FFFF
        if ix < 0x4002_D97C {
            // |x| < 3π/4: subtract π/2 once, in more pieces when x sits right next to it.
            let sign: Double = hx > 0 ? 1 : -1
            var z = x - sign * piOver2Part1
            var tail = piOver2Tail1
            if ix == 0x3FF9_21FB {
                z -= sign * piOver2Part2
                tail = piOver2Tail2
            }
            let y0 = z - sign * tail
            return (hx > 0 ? 1 : -1, y0, (z - y0) - sign * tail)
        }
        let t = abs(x)
        let n = Int(t * inversePiOver2 + 0.5)
        let fn = Double(n)
        var r = t - fn * piOver2Part1
        var w = fn * piOver2Tail1
        var y0 = r - w
        if n >= 32 || ix == multiplesOfPiOver2HighWords[n - 1] {
            let j = ix >> 20
            var i = j - ((highWord(y0) >> 20) & 0x7FF)
            if i > 16 {
                var u = r
                w = fn * piOver2Part2
                r = u - w
                w = fn * piOver2Tail2 - ((u - r) - w)
                y0 = r - w
                i = j - ((highWord(y0) >> 20) & 0x7FF)
                if i > 49 {
                    u = r
                    w = fn * piOver2Part3
                    r = u - w
                    w = fn * piOver2Tail3 - ((u - r) - w)
                    y0 = r - w
                }
            }
        }
        let y1 = (r - y0) - w
        return hx < 0 ? (-n, -y0, -y1) : (n, y0, y1)
    }
}
