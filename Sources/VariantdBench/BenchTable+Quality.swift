import Variants

/// The `--quality` table: per variant and per format, bytes and mean score by us, by pyvips and (with
/// `--previous`) by the previous binary, then each goal with the bound it is held to.
extension BenchTable {
    static func qualityLines(_ quality: QualityComparison) -> [String] {
        let pyvips = quality.pyvipsTool
        let previous = quality.previousBinary != nil
        var header = [
            "format", "variant", "variantd bytes", "\(pyvips) bytes", "÷ \(pyvips)", "variantd score",
            "\(pyvips) score",
        ]
        if previous { header += ["previous bytes", "÷ previous", "previous score"] }
        func row(
            _ format: String, _ variant: String, ours: QualityComparison.Renditions,
            theirs: QualityComparison.Renditions, before: QualityComparison.Renditions?
        ) -> [String] {
            var cells = [
                format, variant, "\(ours.totalBytes)", "\(theirs.totalBytes)",
                fixed(QualityComparison.ratio(ours.totalBytes, theirs.totalBytes), 3),
                fixed(ours.meanScore, 2),
                fixed(theirs.meanScore, 2),
            ]
            if previous {
                cells +=
                    before.map {
                        [
                            "\($0.totalBytes)",
                            fixed(QualityComparison.ratio(ours.totalBytes, $0.totalBytes), 3),
                            fixed($0.meanScore, 2),
                        ]
                    } ?? ["", "", ""]
            }
            return cells
        }
        var rows = [header]
        let formats = quality.formats
        for figures in formats {
            let variants = quality.variants.filter { $0.format == figures.format.rawValue }
            for variant in variants {
                rows.append(
                    row(
                        figures.format.rawValue, variant.name, ours: variant.ours, theirs: variant.pyvips,
                        before: variant.previous))
            }
            if variants.count > 1 {
                rows.append(
                    row(
                        figures.format.rawValue, "all", ours: figures.ours, theirs: figures.pyvips,
                        before: figures.previous))
            }
        }
        let count = quality.pictures.count
        var lines = [
            "Quality: the default bucket on \(count) picture\(count == 1 ? "" : "s"); bytes summed, score the mean "
                + "SSIMULACRA2 (\(quality.scorer)) of each tool's rendition against its own lossless one:"
        ]
        lines += table(rows)
        if let binary = quality.previousBinary { lines.append("previous: \(binary)") }
        lines += autoLines(quality)
        for failure in quality.skipped {
            lines.append("left out: \(failure.file) (\(failure.tool): \(failure.error))")
        }
        lines.append("")
        lines.append("Goals against \(pyvips) in this run:")
        for figures in formats {
            let name = formatNames[figures.format] ?? figures.format.rawValue
            if let goal = figures.byteGoal, let met = figures.meetsByteGoal {
                lines.append(
                    "  \(name) bytes \(fixed(figures.byteRatio, 3))× \(pyvips)'s, bound ≤ \(fixed(goal, 2))×: "
                        + verdict(met))
            }
            lines.append(
                "  \(name) score \(fixed(figures.ours.meanScore, 2)), bound ≥ \(fixed(figures.scoreFloor, 2)) "
                    + "(\(pyvips)'s \(fixed(figures.pyvips.meanScore, 2)) − "
                    + "\(fixed(QualityComparison.scoreMargin, 1))): \(verdict(figures.meetsScoreGoal))")
        }
        return lines
    }

    /// `--auto`: per variant, ours at quality "auto" beside ours as declared, and what the search cost.
    private static func autoLines(_ quality: QualityComparison) -> [String] {
        guard let cost = quality.autoCost else { return [] }
        var rows = [["format", "variant", "auto bytes", "÷ declared", "auto score", "declared score"]]
        for variant in quality.variants {
            guard let auto = variant.auto else { continue }
            rows.append([
                variant.format, variant.name, "\(auto.totalBytes)",
                fixed(QualityComparison.ratio(auto.totalBytes, variant.ours.totalBytes), 3),
                fixed(auto.meanScore, 2), fixed(variant.ours.meanScore, 2),
            ])
        }
        return [
            "", "Quality \"auto\" (each format's default score target) beside the qualities as declared:",
        ]
            + table(rows) + [
                "CPU of the batch, decoder children included: declared \(fixed(cost.declaredSeconds, 1)) s, auto "
                    + "\(fixed(cost.autoSeconds, 1)) s (\(fixed(cost.autoSeconds / max(cost.declaredSeconds, 0.001), 2))×)"
            ]
    }

    private static let formatNames: [OutputFormat: String] = [
        .jpeg: "JPEG", .png: "PNG", .webp: "WebP", .avif: "AVIF",
    ]

    private static func verdict(_ met: Bool) -> String { met ? "met" : "not met" }
}
