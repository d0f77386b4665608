/// The DCT coefficients a channel keeps, in the order the format stores them.
///
/// Row `cy` keeps the `cx` with `cx * ny < nx * (ny - cy)`, which is the triangle the reference walks;
/// the DC term `(0, 0)` comes first.
struct CoefficientTriangle: Sequence {
    let nx: Int
    let ny: Int

    /// How many coefficients, DC included.
    var count: Int {
        var total = 0
        for cy in 0..<ny {
            total += rowLength(cy)
        }
        return total
    }

    /// How many `cx` row `cy` keeps: the smallest `cx` with `cx * ny >= nx * (ny - cy)`.
    func rowLength(_ cy: Int) -> Int {
        (nx * (ny - cy) + ny - 1) / ny
    }

    func makeIterator() -> Iterator {
        Iterator(triangle: self)
    }

    struct Iterator: IteratorProtocol {
        let triangle: CoefficientTriangle
        var cx = 0
        var cy = 0

        mutating func next() -> (cx: Int, cy: Int)? {
            while cy < triangle.ny {
                if cx < triangle.rowLength(cy) {
                    defer { cx += 1 }
                    return (cx, cy)
                }
                cx = 0
                cy += 1
            }
            return nil
        }
    }
}
