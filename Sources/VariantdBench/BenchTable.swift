import Foundation

/// The readable form of a report: one table of every run, then the ratios the targets are stated in.
enum BenchTable {
    static func render(_ report: BenchReport, reference: String?) -> String {
        var lines = report.runs.isEmpty ? [] : runLines(report, reference: reference)
        if let serve = report.serve { lines += serveLines(serve) }
        if let quality = report.quality { lines += (lines.isEmpty ? [] : [""]) + qualityLines(quality) }
        if let avif = report.avif {
            lines.append("")
            lines.append(
                "AVIF, one rendition of \((avif.source as NSString).lastPathComponent) at Q 60, one core:")
            for encoding in avif.encodings {
                let ssim = encoding.ssim.map { ", SSIM \(fixed($0, 4))" } ?? ""
                let quality = encoding.quality.map { " (q\($0))" } ?? ""
                lines.append(
                    "  \(encoding.tool)\(quality): \(fixed(encoding.encodeSeconds, 3)) s, \(encoding.bytes) bytes, "
                        + "\(encoding.width)×\(encoding.height)\(ssim)")
            }
            lines += matchedSizeLines(avif)
        }
        if let thumbhash = report.thumbhash {
            lines.append("")
            lines.append("ThumbHash, ms per operation on 100×100, one core (variantd thumbhash-bench):")
            let rust = thumbhash.thumbhashRs
            func row(_ name: String, _ key: KeyPath<ThumbHashBenchmark.Figures, Double>) -> String {
                "  \(name): \(fixed(thumbhash.swift[keyPath: key], 4))"
                    + (rust.map { " (thumbhash-rs \(fixed($0[keyPath: key], 4)))" } ?? "")
            }
            lines.append(row("encode opaque", \.encodeOpaque))
            lines.append(row("encode alpha", \.encodeAlpha))
            lines.append(row("decode opaque", \.decodeOpaque))
            lines.append(row("decode alpha", \.decodeAlpha))
        }
        if let conditions = report.conditions {
            lines.append("")
            let (before, after) = (fixed(conditions.loadBefore, 1), fixed(conditions.loadAfter, 1))
            let rounds = conditions.rounds ?? 1
            let interleaved =
                rounds > 1
                ? " in each of \(rounds) rounds, every row's rounds interleaved with the others'" : ""
            let passes =
                report.runs.isEmpty
                ? ""
                : "\(conditions.iterations) timed passes after \(conditions.warmups) warm-up\(interleaved); "
            lines.append(
                passes + "\(conditions.cores) cores; load average \(before) before, \(after) after; "
                    + "libvips \(conditions.libvips), libheif \(conditions.libheif)")
        }
        return lines.joined(separator: "\n")
    }

    /// The table of `runs` and the ratios between its rows.
    private static func runLines(_ report: BenchReport, reference: String?) -> [String] {
        var lines: [String] = []
        let header = [
            "corpus", "tool", "jobs", "images", "img/s", "MP/s", "p50 ms", "p95 ms", "RSS MB", "failed",
        ]
        let rows = report.runs.map { run in
            [
                run.corpus, run.tool, "\(run.jobs)", "\(run.images)", fixed(run.imagesPerSecond, 2),
                fixed(run.megapixelsPerSecond, 1), fixed(run.p50Milliseconds, 0),
                fixed(run.p95Milliseconds, 0),
                fixed(run.peakResidentMB, 0),
                failures(run.failed),
            ]
        }
        lines += table([header] + rows)

        let corpora = report.runs.map(\.corpus).reduce(into: [String]()) {
            if !$0.contains($1) { $0.append($1) }
        }
        lines.append("")
        lines.append("W1 ÷ decode-only, jobs 1 (variantd ÷ variantd-decode, p50 latency):")
        for corpus in corpora {
            guard let w1 = report.run("variantd", corpus), let decode = report.run("variantd-decode", corpus),
                decode.p50Milliseconds > 0
            else { continue }
            lines.append("  \(corpus): \(fixed(w1.p50Milliseconds / decode.p50Milliseconds, 2))")
        }
        if let reference, reference != "variantd-decode" {
            lines.append("")
            lines.append("variantd jobs 1 ÷ \(reference) (images/s; above 1 is faster):")
            for corpus in corpora {
                guard let ours = report.run("variantd", corpus), let theirs = report.run(reference, corpus),
                    theirs.imagesPerSecond > 0
                else { continue }
                lines.append("  \(corpus): \(fixed(ours.imagesPerSecond / theirs.imagesPerSecond, 2))")
            }
        }
        let unpinned = report.runs.filter { $0.tool == "variantd-unpinned" }
        if !unpinned.isEmpty {
            lines.append("")
            lines.append("One picture at a time on every core ÷ pinned to one core (p50 latency):")
            for run in unpinned {
                guard let pinned = report.run("variantd", run.corpus), pinned.p50Milliseconds > 0 else {
                    continue
                }
                lines.append("  \(run.corpus): \(fixed(run.p50Milliseconds / pinned.p50Milliseconds, 2))")
            }
        }
        lines += roundLines(report, corpora: corpora)
        lines.append("")
        lines.append("Where variantd's time goes, jobs 1 (share of one pass):")
        for corpus in corpora {
            guard let run = report.run("variantd", corpus) else { continue }
            let total = run.stages.values.reduce(0, +)
            guard total > 0 else { continue }
            let shares = run.stages.sorted { $0.value > $1.value }.map {
                "\($0.key) \(Int(($0.value / total * 100).rounded()))%"
            }
            lines.append("  \(corpus) (\(fixed(total, 2)) s): " + shares.joined(separator: ", "))
        }
        return lines
    }

    /// With `--rounds`: variantd against every other tool, and its multi-core row against its one-core row,
    /// as the median and range of the ratios taken within each round, where both rows met the same machine.
    private static func roundLines(_ report: BenchReport, corpora: [String]) -> [String] {
        var lines: [String] = []
        for corpus in corpora {
            guard let ours = report.run("variantd", corpus), let rounds = ours.roundImagesPerSecond else {
                continue
            }
            let others = report.runs.filter { $0.corpus == corpus && !$0.tool.hasPrefix("variantd") }
            for theirs in others {
                guard let ratios = roundRatios(rounds, theirs.roundImagesPerSecond) else { continue }
                lines.append("  \(corpus), variantd ÷ \(theirs.tool): \(ratios)")
            }
            for multi in report.runs
            where multi.corpus == corpus && multi.tool == "variantd" && multi.jobs > 1 {
                guard let ratios = roundRatios(multi.roundImagesPerSecond ?? [], rounds) else { continue }
                lines.append("  \(corpus), variantd jobs \(multi.jobs) ÷ jobs 1: \(ratios)")
            }
        }
        guard let count = report.conditions?.rounds, !lines.isEmpty else { return [] }
        return [
            "", "Round by round (images/s ratio within each of \(count) rounds: median, lowest–highest):",
        ]
            + lines
    }

    /// `numerator ÷ denominator` round by round, over the rounds where both measured something.
    private static func roundRatios(_ numerator: [Double], _ denominator: [Double]?) -> String? {
        guard let denominator, denominator.count == numerator.count else { return nil }
        let ratios = zip(numerator, denominator).compactMap { $0 > 0 && $1 > 0 ? $0 / $1 : nil }
        guard let lowest = ratios.min(), let highest = ratios.max() else { return nil }
        let median = BenchStatistics.percentile(ratios, 0.5)
        return "\(fixed(median, 2)) (\(fixed(lowest, 2))–\(fixed(highest, 2)))"
    }

    /// `--serve`: one row per corpus and concurrency, the memory samples, the soak.
    static func serveLines(_ serve: ServeLoadReport) -> [String] {
        var lines = [
            "Daemon under load (variantd serve, \(serve.slots) slots, \(serve.requests) requests per row):"
        ]
        let header = [
            "corpus", "clients", "images", "img/s", "MP/s", "p50 ms", "p95 ms", "p99 ms", "peak RSS MB",
            "statuses", "failed",
        ]
        let rows = serve.runs.map { run in
            [
                run.corpus, "\(run.jobs)", "\(run.images)", fixed(run.imagesPerSecond, 2),
                fixed(run.megapixelsPerSecond, 1), fixed(run.p50Milliseconds, 0),
                fixed(run.p95Milliseconds, 0),
                fixed(run.p99Milliseconds ?? 0, 0), fixed(run.peakResidentMB, 0),
                statuses(run.statuses ?? [:]),
                failures(run.failed),
            ]
        }
        lines += table([header] + rows)
        lines.append("")
        lines.append("Memory (MB): daemon + decoder children")
        for sample in serve.memory {
            lines.append("  \(sample.at): \(memory(sample))")
        }
        if let soak = serve.soak {
            lines.append("")
            lines.append(
                "Soak: \(soak.jobs) jobs on \(soak.files) files, \(fixed(soak.imagesPerSecond, 1)) img/s, "
                    + statuses(soak.statuses))
            for sample in soak.samples {
                lines.append("  after \(sample.jobs ?? 0) jobs: \(memory(sample))")
            }
            let growth = fixed(soak.growthMB, 1)
            lines.append(
                "  RSS growth after the first \(ServeLoad.soakInterval) jobs: daemon \(growth) MB "
                    + "(bound \(fixed(soak.boundMB, 0)) MB), children "
                    + "\(fixed(soak.childrenGrowthMB ?? 0, 1)) MB (bound \(fixed(soak.childrenBoundMB ?? 0, 0)) MB): "
                    + (soak.withinBound ? "within" : "EXCEEDED"))
        }
        if let overload = serve.overload {
            lines.append("")
            lines.append(
                "Overload: \(fixed(overload.offeredPerSecond, 1)) jobs/s offered (\(fixed(overload.sustainablePerSecond, 1)) "
                    + "sustained) for \(fixed(overload.seconds, 0)) s over \(overload.clients) connections: "
                    + statuses(overload.statuses))
            lines.append(
                "  p99 of 503: \(overload.p99BusyMilliseconds.map { fixed($0, 1) } ?? "-") ms (target ≤ 50), "
                    + "p99 of 200: \(overload.p99OkMilliseconds.map { fixed($0, 0) } ?? "-") ms, "
                    + "503 without Retry-After: \(overload.busyWithoutRetryAfter)")
            lines.append("  memory before: \(memory(overload.before)), after: \(memory(overload.after))")
        }
        lines.append("")
        lines.append(
            "Daemon exit status after SIGTERM: \(serve.exitStatus.map { "\($0)" } ?? "none (killed)")")
        return lines
    }

    private static func memory(_ sample: ServeLoadReport.MemorySample) -> String {
        "\(fixed(sample.daemonMB, 1)) + \(fixed(sample.childrenMB, 1)) (\(sample.children) children)"
    }

    /// `200: 118, 503: 2`, by status.
    private static func statuses(_ counts: [String: Int]) -> String {
        counts.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
    }

    /// Columns padded to their widest cell, as a Markdown table (readable as text too).
    static func table(_ rows: [[String]]) -> [String] {
        let widths = (0..<(rows.first?.count ?? 0)).map { column in rows.map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            "| "
                + zip(cells, widths).map { $0 + String(repeating: " ", count: $1 - $0.count) }.joined(
                    separator: " | ") + " |"
        }
        guard let first = rows.first else { return [] }
        return [
            line(first),
            "|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|",
        ]
            + rows.dropFirst().map(line)
    }

    /// The count and the first two names: the JSON has them all.
    static func failures(_ names: [String]) -> String {
        guard !names.isEmpty else { return "" }
        return "\(names.count): " + names.prefix(2).joined(separator: ", ") + (names.count > 2 ? ", …" : "")
    }

    static func fixed(_ value: Double, _ digits: Int) -> String {
        String(format: "%.\(digits)f", value)
    }

    /// Ours at pyvips' file size against pyvips: the size, SSIM and speed the AVIF target is stated in.
    private static func matchedSizeLines(_ avif: AvifComparison) -> [String] {
        guard let matched = avif.encodings.first(where: { $0.tool == AvifComparison.matchedTool }),
            let pyvips = avif.encodings.first(where: { $0.tool.hasPrefix("pyvips") }), pyvips.bytes > 0,
            matched.encodeSeconds > 0
        else { return [] }
        let size = Double(matched.bytes - pyvips.bytes) / Double(pyvips.bytes) * 100
        let ssim =
            matched.ssim.flatMap { ours in pyvips.ssim.map { ", SSIM \(fixed(ours - $0, 4)) from pyvips'" } }
            ?? ""
        return [
            "  at pyvips' size: \(size >= 0 ? "+" : "")\(fixed(size, 1)) % bytes\(ssim), "
                + "\(fixed(pyvips.encodeSeconds / matched.encodeSeconds, 1))× faster"
        ]
    }
}
