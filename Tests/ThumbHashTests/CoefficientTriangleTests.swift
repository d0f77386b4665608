import Testing

@testable import ThumbHash

/// The triangle `cx * ny < nx * (ny - cy)` in storage order, as the reference walks it.
@Suite struct CoefficientTriangleTests {
    @Test(arguments: [(7, 7, 28), (5, 5, 15), (3, 3, 6), (7, 3, 15), (3, 7, 15), (7, 4, 19), (6, 7, 27)])
    func countsMatchTheReferenceLoops(nx: Int, ny: Int, expected: Int) {
        var walked: [(Int, Int)] = []
        for cy in 0..<ny {
            var cx = 0
            while cx * ny < nx * (ny - cy) {
                walked.append((cx, cy))
                cx += 1
            }
        }
        let triangle = CoefficientTriangle(nx: nx, ny: ny)
        #expect(triangle.count == expected)
        #expect(walked.count == expected)
        #expect(Array(triangle).map { [$0.cx, $0.cy] } == walked.map { [$0.0, $0.1] })
    }
}
