extension VariantSpec {
    /// How much `Save-Data: on` lowers a fixed quality (declared, or the format's default): 82 becomes 62.
    public static let saveDataQualityStep = 20
    /// How much it lowers a score target (`auto` as the format's score, or `{"ssimulacra2": N}`), down to the
    /// lowest score a target may have.
    public static let saveDataScoreStep = 10

    /// The same rendition one quality step lower, for a client that asked to save data. A format without a
    /// quality (PNG), and `original` without a declared quality, whose format is not known yet, are unchanged.
    func savingData() -> VariantSpec {
        var spec = self
        if let qualityTarget {
            guard let score = qualityTarget.score(in: format) else { return self }
            spec.qualityTarget = .ssimulacra2(
                max(QualityTarget.scores.lowerBound, score - Self.saveDataScoreStep))
        } else if let quality = quality ?? format.defaultQuality {
            spec.quality = max(VariantSpec.qualities.lowerBound, quality - Self.saveDataQualityStep)
        }
        return spec
    }
}
