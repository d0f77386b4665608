/// One XYB channel at one scale with the two blurs that depend on it alone: its local mean and the local mean
/// of its square. A quality search computes them once for the original and scores every candidate against them.
struct BlurredChannel: Sendable {
    let plane: Plane
    let mean: Plane
    let meanOfSquare: Plane

    init(_ plane: Plane) {
        self.plane = plane
        mean = RecursiveGaussian.blur(plane)
        meanOfSquare = RecursiveGaussian.blur(plane.multiplied(by: plane))
    }
}
