extension BarChart {
    /// Sizes of the drawing, in SVG user units (pixels at 100 %).
    private enum Layout {
        static let left = 72.0
        static let plotHeight = 240.0
        static let groupGap = 28.0
        /// Room above the tallest bar for its caption.
        static let headroom = 1.15
    }

    /// The chart as a standalone SVG document: gridlines and their figures, the bars (baseline bars faded
    /// beside the current ones), a caption over each bar, labels under them and a legend on the right.
    public func svg() -> String {
        let labelled = groups.contains { $0.bars.contains { !$0.label.isEmpty } }
        let barWidth = self.barWidth ?? (labelled ? 40 : 16)
        let barGap = barWidth >= 30 ? 8.0 : 3.0
        let groupWidths = groups.map { group in
            Double(group.bars.count) * barWidth + Double(max(0, group.bars.count - 1)) * barGap
        }
        let plotWidth = max(
            160, groupWidths.reduce(0, +) + Double(groups.count + 1) * Layout.groupGap)
        let subtitles = subtitle?.split(separator: "\n").map(String.init) ?? []
        // Below the title and each subtitle line, with room for the captions of the tallest bars.
        let top = 58 + 14 * Double(subtitles.count)
        let plotBottom = top + Layout.plotHeight
        let legendX = Layout.left + plotWidth + 24
        let hasBaseline = groups.contains { $0.bars.contains(where: \.isBaseline) }
        let legendEntries = series + (hasBaseline ? [baselineLegend] : [])
        let legendWidth = 30 + Self.textWidth(legendEntries.max { $0.count < $1.count } ?? "", size: 12)
        // Whole pixels, so a rasteriser's output is exactly the document's size.
        let headings = [Self.textWidth(title, size: 16)] + subtitles.map { Self.textWidth($0, size: 11) }
        let width = max(legendX + legendWidth + 16, 32 + (headings.max() ?? 0)).rounded(.up)
        let height = max(plotBottom + 56, top + Double(legendEntries.count) * 20 + 16).rounded(.up)
        var document = SVGDocument(width: width, height: height)
        document.rect(x: 0, y: 0, width: width, height: height, fill: "#ffffff")
        document.text(title, x: 16, y: 26, size: 16, bold: true)
        for (index, line) in subtitles.enumerated() {
            document.text(line, x: 16, y: 44 + 14 * Double(index), size: 11, fill: "#555")
        }

        let largest = groups.flatMap(\.bars).map(\.total).max() ?? 0
        let scale = AxisScale(covering: axisMaximum ?? largest * Layout.headroom)
        func y(_ value: Double) -> Double { plotBottom - value / scale.maximum * Layout.plotHeight }
        for tick in scale.ticks {
            document.line(
                x1: Layout.left, y1: y(tick), x2: Layout.left + plotWidth, y2: y(tick),
                stroke: tick == 0 ? "#444" : "#ddd")
            document.text(FigureText.of(tick), x: Layout.left - 6, y: y(tick) + 4, size: 10, anchor: .end)
        }
        let axisMiddle = top + Layout.plotHeight / 2
        document.text(axisLabel, x: 20, y: axisMiddle, size: 11, anchor: .middle, rotation: -90)

        var x = Layout.left + Layout.groupGap
        for (group, groupWidth) in zip(groups, groupWidths) {
            for bar in group.bars {
                var base = 0.0
                for segment in bar.segments where segment.value > 0 {
                    let name = series.indices.contains(segment.series) ? series[segment.series] : ""
                    let what = [group.label, bar.label, name].filter { !$0.isEmpty }.joined(separator: " · ")
                    document.rect(
                        x: x, y: y(base + segment.value), width: barWidth,
                        height: y(base) - y(base + segment.value), fill: Palette.colour(segment.series),
                        opacity: bar.isBaseline ? 0.35 : 1,
                        stroke: bar.isBaseline ? Palette.colour(segment.series) : nil,
                        title: "\(what): \(FigureText.of(segment.value)) \(axisLabel)"
                            + (bar.isBaseline ? " (baseline)" : ""))
                    base += segment.value
                }
                let caption = bar.caption ?? FigureText.of(bar.total)
                let centre = x + barWidth / 2
                if Self.textWidth(caption, size: 9) > barWidth + barGap {
                    document.text(caption, x: centre + 3, y: y(base) - 4, size: 9, rotation: -90)
                } else {
                    document.text(caption, x: centre, y: y(base) - 4, size: 9, anchor: .middle)
                }
                if !bar.label.isEmpty {
                    document.text(bar.label, x: centre, y: plotBottom + 14, size: 10, anchor: .middle)
                }
                x += barWidth + barGap
            }
            x -= group.bars.isEmpty ? 0 : barGap
            document.text(
                group.label, x: x - groupWidth / 2, y: plotBottom + (labelled ? 32 : 18), size: 12,
                anchor: .middle, bold: true)
            x += Layout.groupGap
        }

        for (index, entry) in legendEntries.enumerated() {
            let entryTop = top + Double(index) * 20
            let isBaselineEntry = index >= series.count
            document.rect(
                x: legendX, y: entryTop, width: 12, height: 12,
                fill: isBaselineEntry ? "#666" : Palette.colour(index), opacity: isBaselineEntry ? 0.35 : 1)
            document.text(entry, x: legendX + 18, y: entryTop + 10, size: 12)
        }
        return document.rendered(title: title)
    }

    /// A generous estimate of a text's width (no font metrics here): wide enough that nothing overlaps.
    static func textWidth(_ text: String, size: Double) -> Double {
        Double(text.count) * size * 0.62
    }
}
