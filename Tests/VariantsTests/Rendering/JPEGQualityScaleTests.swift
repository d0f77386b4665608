import Testing

@testable import Variants

@Suite struct JPEGQualityScaleTests {
    @Test func measuredPointsAreKept() {
        for point in JPEGQualityScale.points {
            #expect(JPEGQualityScale.jpegliQuality(forQuality: point.declared) == point.jpegli, "\(point)")
        }
        #expect(JPEGQualityScale.jpegliQuality(forQuality: 82) == 85)
    }

    /// A higher declared quality never gives a lower jpegli quality, and every one stays in jpegli's range.
    @Test func risesWithTheDeclaredQuality() {
        let mapped = (1...100).map(JPEGQualityScale.jpegliQuality(forQuality:))
        #expect(zip(mapped, mapped.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(mapped.first == 1 && mapped.last == 100)
    }
}
