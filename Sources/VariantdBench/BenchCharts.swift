import Charts
import Foundation

/// The benchmark's figures as charts — the one place that reads bench reports for the `Charts` module:
/// images/s per tool per corpus (grouped bars) and where `variantd`'s time goes per corpus (stacked bars),
/// each with a baseline run drawn beside as before/after when one is given.
enum BenchCharts {
    /// The files `write` makes, in the order it makes them.
    static let fileNames = ["throughput.svg", "stages.svg"]

    /// Stages as the stacked chart groups them, bottom up: `render.<variant>` and `encode.<variant>` are
    /// summed over the variants.
    private static let stages = [
        "read", "hash", "sniff", "probe", "decode", "thumbhash", "render", "encode", "write",
    ]

    /// Writes both charts into `directory` (created if needed) and returns their paths.
    static func write(_ report: BenchReport, baseline: BenchReport?, to directory: String) throws -> [String]
    {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let charts = [throughput(report, baseline: baseline), stageSplit(report, baseline: baseline)]
        return try zip(fileNames, charts).map { name, chart in
            let path = (directory as NSString).appendingPathComponent(name)
            try Data(chart.svg().utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
            return path
        }
    }

    /// Images/s of every tool on every corpus; a tool run at more than one job is its own series.
    static func throughput(_ report: BenchReport, baseline: BenchReport?) -> BarChart {
        let runs = rows(report)
        let before = baseline.map(rows) ?? []
        var series: [String] = []
        for run in runs where !series.contains(label(run)) { series.append(label(run)) }
        let groups = corpora(runs).map { corpus in
            BarChart.Group(
                label: corpus,
                bars: runs.filter { $0.corpus == corpus }.flatMap { run -> [BarChart.Bar] in
                    let index = series.firstIndex(of: label(run)) ?? 0
                    var bars: [BarChart.Bar] = []
                    if let old = before.first(where: { same($0, run) }) {
                        bars.append(bar(old, series: index, isBaseline: true))
                    }
                    bars.append(bar(run, series: index, isBaseline: false))
                    return bars
                })
        }
        return BarChart(
            title: "W1 images per second, per tool and corpus", subtitle: subtitle(report, baseline),
            axisLabel: "images/s", series: series, groups: groups)
    }

    /// Each stage's share of `variantd`'s time at one job, per corpus; the caption is the time per image.
    static func stageSplit(_ report: BenchReport, baseline: BenchReport?) -> BarChart {
        let ours = report.runs.filter { $0.tool == "variantd" && $0.jobs == 1 && !$0.stages.isEmpty }
        let groups = corpora(ours).map { corpus in
            let now = ours.first { $0.corpus == corpus }
            let old = baseline?.runs.first { $0.tool == "variantd" && $0.jobs == 1 && $0.corpus == corpus }
            let pair = [old.map { ("before", $0, true) }, now.map { ("now", $0, false) }].compactMap { $0 }
            return BarChart.Group(
                label: corpus,
                bars: pair.map { label, run, isBaseline in
                    let seconds = stages.map { stage in
                        run.stages.filter { $0.key == stage || $0.key.hasPrefix(stage + ".") }.values
                            .reduce(0, +)
                    }
                    let total = seconds.reduce(0, +)
                    let perImage = run.images > 0 ? total / Double(run.images) * 1000 : 0
                    return BarChart.Bar(
                        label: baseline == nil ? "" : label,
                        segments: seconds.enumerated().map {
                            .init(series: $0.offset, value: total > 0 ? $0.element / total * 100 : 0)
                        },
                        isBaseline: isBaseline, caption: "\(Int(perImage.rounded())) ms")
                })
        }
        var chart = BarChart(
            title: "Where variantd's time goes (W1, one job), per corpus",
            subtitle: "each stage's share of one pass; above each bar, the time per image\n"
                + subtitle(report, baseline),
            axisLabel: "% of the time", series: stages, groups: groups)
        chart.barWidth = 40
        chart.axisMaximum = 100
        return chart
    }

    /// The rows of a table run, or of a `--serve` run when there are none.
    private static func rows(_ report: BenchReport) -> [BenchRun] {
        report.runs.isEmpty ? report.serve?.runs ?? [] : report.runs
    }

    private static func corpora(_ runs: [BenchRun]) -> [String] {
        var names: [String] = []
        for run in runs where !names.contains(run.corpus) { names.append(run.corpus) }
        return names
    }

    private static func label(_ run: BenchRun) -> String {
        run.jobs == 1 ? run.tool : "\(run.tool) ×\(run.jobs)"
    }

    private static func same(_ a: BenchRun, _ b: BenchRun) -> Bool {
        a.tool == b.tool && a.corpus == b.corpus && a.jobs == b.jobs
    }

    private static func bar(_ run: BenchRun, series: Int, isBaseline: Bool) -> BarChart.Bar {
        BarChart.Bar(
            segments: [.init(series: series, value: run.imagesPerSecond)], isBaseline: isBaseline,
            caption: run.images == 0 ? "fails" : nil)
    }

    private static func subtitle(_ report: BenchReport, _ baseline: BenchReport?) -> String {
        var text = ""
        if let conditions = report.conditions {
            text =
                "\(conditions.iterations) timed passes, \(conditions.cores) cores, load average "
                + "\(oneDecimal(conditions.loadBefore))–\(oneDecimal(conditions.loadAfter)), "
                + "libvips \(conditions.libvips), libheif \(conditions.libheif)"
        }
        if baseline != nil {
            text += (text.isEmpty ? "" : "; ") + "faded bars and 'before': the baseline run"
        }
        return text
    }

    private static func oneDecimal(_ value: Double) -> String {
        "\((value * 10).rounded() / 10)"
    }
}
