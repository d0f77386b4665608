/// The fixed fields at the start of a hash, and the length they imply.
///
/// Parsing checks the length up front so that the decoder, the average colour and the aspect ratio read
/// only bytes that exist.
struct HashHeader: Sendable, Hashable {
    let lDC: Double
    let pDC: Double
    let qDC: Double
    let lScale: Double
    let pScale: Double
    let qScale: Double
    let aDC: Double
    let aScale: Double
    let hasAlpha: Bool
    let isLandscape: Bool
    /// Luminance components across and down as stored (1...7), used for the aspect ratio.
    let storedLX: Int
    let storedLY: Int
    /// Where the AC nibbles start: after 5 header bytes, or 6 with alpha.
    let acStart: Int

    /// Components the decoder reads: the stored counts raised to at least 3.
    var lx: Int { max(3, storedLX) }
    var ly: Int { max(3, storedLY) }

    /// How many bytes a hash with this header has.
    var hashLength: Int {
        let nibbles = CoefficientTriangle(nx: lx, ny: ly).count - 1 + 5 + 5 + (hasAlpha ? 14 : 0)
        return acStart + (nibbles + 1) / 2
    }

    init(_ hash: [UInt8]) throws(ThumbHashError) {
        guard hash.count >= 5 else {
            throw .hashLength(expected: 5, actual: hash.count)
        }
        let header24 = Int(hash[0]) | Int(hash[1]) << 8 | Int(hash[2]) << 16
        let header16 = Int(hash[3]) | Int(hash[4]) << 8
        hasAlpha = header24 >> 23 != 0
        isLandscape = header16 >> 15 != 0
        acStart = hasAlpha ? 6 : 5
        guard hash.count >= acStart else {
            throw .hashLength(expected: acStart, actual: hash.count)
        }
        lDC = Double(header24 & 63) / 63
        pDC = Double(header24 >> 6 & 63) / 31.5 - 1
        qDC = Double(header24 >> 12 & 63) / 31.5 - 1
        lScale = Double(header24 >> 18 & 31) / 31
        pScale = Double(header16 >> 3 & 63) / 63
        qScale = Double(header16 >> 9 & 63) / 63
        aDC = hasAlpha ? Double(hash[5] & 15) / 15 : 1
        aScale = hasAlpha ? Double(hash[5] >> 4) / 15 : 0
        let longSide = hasAlpha ? 5 : 7
        storedLX = isLandscape ? longSide : header16 & 7
        storedLY = isLandscape ? header16 & 7 : longSide
        guard storedLX > 0, storedLY > 0 else {
            throw .zeroComponentCount
        }
        guard hash.count == hashLength else {
            throw .hashLength(expected: hashLength, actual: hash.count)
        }
    }
}
