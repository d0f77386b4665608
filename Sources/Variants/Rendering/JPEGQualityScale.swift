/// A declared JPEG quality keeps meaning what it meant on libjpeg-turbo's scale: jpegli at the quality given
/// here scores (SSIMULACRA2, on the corpus photos) about what libjpeg-turbo scored at the declared one, in fewer
/// bytes. docs/BucketDeclaration.md has the measured points.
enum JPEGQualityScale {
    /// A declared quality, and jpegli's quality that looks the same; straight lines between them.
    static let points: [(declared: Int, jpegli: Int)] = [
        (1, 1), (45, 35), (60, 57), (75, 77), (82, 85), (89, 90), (90, 94), (95, 97), (100, 100),
    ]

    /// jpegli's quality for a declared quality of 1…100.
    static func jpegliQuality(forQuality quality: Int) -> Int {
        let declared = min(max(quality, 1), 100)
        guard let upper = points.firstIndex(where: { $0.declared >= declared }), upper > 0 else {
            return declared
        }
        let (a, b) = (points[upper - 1], points[upper])
        let fraction = Double(declared - a.declared) / Double(b.declared - a.declared)
        return Int((Double(a.jpegli) + fraction * Double(b.jpegli - a.jpegli)).rounded())
    }
}
