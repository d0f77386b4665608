/// One channel of a picture at one scale, in single precision as the reference computes it.
struct Plane: Sendable {
    let width: Int
    let height: Int
    var values: [Float]

    init(width: Int, height: Int, values: [Float]) {
        self.width = width
        self.height = height
        self.values = values
    }

    init(width: Int, height: Int) {
        self.init(width: width, height: height, values: [Float](repeating: 0, count: width * height))
    }

    /// The element-wise product, the input of the blurred (co)variances.
    func multiplied(by other: Plane) -> Plane {
        var product = Plane(width: width, height: height)
        for index in values.indices {
            product.values[index] = values[index] * other.values[index]
        }
        return product
    }

    /// Each 2 × 2 block averaged; an odd last row or column averages the pixels it has, as the reference's
    /// clamped reads do.
    func halved() -> Plane {
        let outWidth = (width + 1) / 2
        let outHeight = (height + 1) / 2
        var out = Plane(width: outWidth, height: outHeight)
        for outY in 0..<outHeight {
            let top = 2 * outY * width
            let bottom = min(2 * outY + 1, height - 1) * width
            for outX in 0..<outWidth {
                let left = 2 * outX
                let right = min(left + 1, width - 1)
                let sum =
                    values[top + left] + values[top + right] + values[bottom + left] + values[bottom + right]
                out.values[outY * outWidth + outX] = sum * 0.25
            }
        }
        return out
    }
}
