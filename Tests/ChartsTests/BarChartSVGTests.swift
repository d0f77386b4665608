import Foundation
import Testing

@testable import Charts

/// A chart drawn to SVG, read back as XML and rasterised by librsvg (`rsvg-convert`, Debian's
/// `librsvg2-bin`, installed by scripts/setup.sh).
@Suite struct BarChartSVGTests {
    /// Two corpora, three tools, the first tool also with a baseline figure; one stacked bar per group.
    static let grouped = BarChart(
        title: "images/s", subtitle: "two corpora", axisLabel: "images/s",
        series: ["ours", "theirs", "others <&>"],
        groups: [
            .init(
                label: "jpeg",
                bars: [
                    .init(segments: [.init(series: 0, value: 4.1)], isBaseline: true),
                    .init(segments: [.init(series: 0, value: 4.5)]),
                    .init(segments: [.init(series: 1, value: 3.9)]),
                    .init(segments: [.init(series: 2, value: 0)], caption: "fails"),
                ]),
            .init(
                label: "heic",
                bars: [
                    .init(segments: [.init(series: 0, value: 1.3)]),
                    .init(segments: [.init(series: 1, value: 1.4)]),
                ]),
        ])

    @Test func everyBarSegmentIsARectWithATooltipAndTheLegendNamesEverySeries() throws {
        let svg = try SVGOutline(Self.grouped.svg())
        #expect(svg.root == "svg")
        let titles = svg.texts["title"] ?? []
        #expect(titles.contains("jpeg · ours: 4.5 images/s"))
        #expect(titles.contains("jpeg · ours: 4.1 images/s (baseline)"))
        #expect(titles.contains("heic · theirs: 1.4 images/s"))
        // Background, five non-zero segments, three series swatches and the baseline swatch.
        #expect(svg.count("rect") == 1 + 5 + 3 + 1)
        let texts = svg.texts["text"] ?? []
        for word in ["ours", "theirs", "others <&>", "faded: baseline run", "jpeg", "heic", "fails", "4.5"] {
            #expect(texts.contains(word), "\(word)")
        }
    }

    @Test func stackedSegmentsShareOneBarFromTheAxisUp() throws {
        var chart = BarChart(
            title: "stages", axisLabel: "%", series: ["decode", "encode"],
            groups: [
                .init(
                    label: "jpeg",
                    bars: [
                        .init(
                            label: "now",
                            segments: [.init(series: 0, value: 60), .init(series: 1, value: 40)])
                    ])
            ])
        chart.axisMaximum = 100
        let svg = try SVGOutline(chart.svg())
        let bars = svg.attributes.filter { $0["fill"] == "#0072B2" || $0["fill"] == "#E69F00" }
            .filter { Double($0["width"] ?? "") == 40 }
        #expect(bars.count == 2)
        let decode = try #require(bars.first { $0["fill"] == "#0072B2" })
        let encode = try #require(bars.first { $0["fill"] == "#E69F00" })
        // 60 % then 40 % of a 240-unit plot: the encode segment sits right on top of the decode one.
        #expect(Double(decode["height"] ?? "") == 144)
        #expect(Double(encode["height"] ?? "") == 96)
        #expect(Double(encode["y"] ?? "")! + 96 == Double(decode["y"] ?? ""))
        #expect(decode["x"] == encode["x"])
    }

    @Test(
        .enabled(
            if: Tools.find("rsvg-convert") != nil && Tools.find("vips") != nil,
            "rsvg-convert or vips is absent (Debian's librsvg2-bin, libvips-tools); run scripts/setup.sh"))
    func librsvgRasterisesTheChartAtItsSizeAndNotBlank() throws {
        let rsvg = try #require(Tools.find("rsvg-convert"))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "variantd-charts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = Self.grouped.svg()
        let svgPath = directory.appendingPathComponent("chart.svg").path
        let pngPath = directory.appendingPathComponent("chart.png").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: svgPath))
        let status = try Tools.run(rsvg, ["-o", pngPath, svgPath])
        #expect(status == 0)
        let outline = try SVGOutline(text)
        let size = try #require(outline.attributes.first)
        let png = try RasterCheck(pngPath)
        #expect(png.width == Int(size["width"] ?? ""))
        #expect(png.height == Int(size["height"] ?? ""))
        #expect(try png.isNotBlank())
    }
}
