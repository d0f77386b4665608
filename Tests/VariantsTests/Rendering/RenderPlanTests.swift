import Testing

@testable import Variants

/// One geometry case: a displayed source size and a variant, and the plan's sizes for them.
struct GeometryRow: Sendable, CustomTestStringConvertible {
    var source: (width: Int, height: Int)
    var spec: VariantSpec
    var resize: (width: Int, height: Int)
    var framing: RenderPlan.Framing
    var output: (width: Int, height: Int)

    var testDescription: String {
        let box = "\(spec.width.map(String.init) ?? "_")×\(spec.height.map(String.init) ?? "_")"
        let enlarging = spec.withoutEnlargement ? "" : " enlarging"
        return "\(source.width)×\(source.height) rotate \(spec.rotation.rawValue) → \(spec.fit) \(box)"
            + " \(spec.position)\(enlarging)"
    }
}

private func spec(
    _ width: Int?, _ height: Int?, _ fit: Fit? = nil, position: Position = .centre, rotation: Rotation = .d0,
    enlarging: Bool = false, format: OutputFormat = .jpeg, quality: Int? = nil, background: Colour = .white
) -> VariantSpec {
    VariantSpec(
        name: "v", width: width, height: height, fit: fit, position: position, format: format,
        quality: quality,
        rotation: rotation, background: background, withoutEnlargement: !enlarging)
}

private func row(
    _ source: (Int, Int), _ spec: VariantSpec, resize: (Int, Int), _ framing: RenderPlan.Framing = .none,
    output: (Int, Int)? = nil
) -> GeometryRow {
    GeometryRow(source: source, spec: spec, resize: resize, framing: framing, output: output ?? resize)
}

private func plan(
    _ width: Int, _ height: Int, _ spec: VariantSpec, alpha: Bool = false,
    source format: OutputFormat? = .jpeg
) -> RenderPlan {
    RenderPlan(
        sourceWidth: width, sourceHeight: height, spec: spec, sourceHasAlpha: alpha, sourceFormat: format)
}

@Suite struct RenderPlanTests {
    static let cover: [GeometryRow] = [
        row(
            (400, 300), spec(200, 200, .cover), resize: (267, 200),
            .crop(x: 34, y: 0, width: 200, height: 200),
            output: (200, 200)),
        row(
            (300, 400), spec(200, 200, .cover, position: .north), resize: (200, 267),
            .crop(x: 0, y: 0, width: 200, height: 200), output: (200, 200)),
        row(
            (300, 400), spec(200, 200, .cover, position: .south), resize: (200, 267),
            .crop(x: 0, y: 67, width: 200, height: 200), output: (200, 200)),
        row(
            (400, 300), spec(200, 200, .cover, position: .east), resize: (267, 200),
            .crop(x: 67, y: 0, width: 200, height: 200), output: (200, 200)),
        row(
            (400, 300), spec(200, 200, .cover, position: .west), resize: (267, 200),
            .crop(x: 0, y: 0, width: 200, height: 200), output: (200, 200)),
        row(
            (500, 500), spec(200, 100, .cover, position: .southeast), resize: (200, 200),
            .crop(x: 0, y: 100, width: 200, height: 100), output: (200, 100)),
        row(
            (500, 500), spec(100, 200, .cover, position: .northeast), resize: (200, 200),
            .crop(x: 100, y: 0, width: 100, height: 200), output: (100, 200)),
        row(
            (500, 500), spec(100, 200, .cover, position: .southwest), resize: (200, 200),
            .crop(x: 0, y: 0, width: 100, height: 200), output: (100, 200)),
        row(
            (500, 500), spec(200, 101, .cover, position: .northwest), resize: (200, 200),
            .crop(x: 0, y: 0, width: 200, height: 101), output: (200, 101)),
        row(
            (400, 300), spec(200, 200, .cover, position: .entropy), resize: (267, 200),
            .smartCrop(width: 200, height: 200, interest: .entropy), output: (200, 200)),
        row(
            (300, 400), spec(200, 200, .cover, position: .attention), resize: (200, 267),
            .smartCrop(width: 200, height: 200, interest: .attention), output: (200, 200)),
        row((400, 200), spec(200, 100, .cover), resize: (200, 100)),
        // Without enlargement the crop is min(box, resized) on each axis.
        row((100, 50), spec(200, 200, .cover), resize: (100, 50)),
        row(
            (300, 100), spec(200, 200, .cover), resize: (300, 100),
            .crop(x: 50, y: 0, width: 200, height: 100),
            output: (200, 100)),
        row(
            (100, 50), spec(200, 200, .cover, enlarging: true), resize: (400, 200),
            .crop(x: 100, y: 0, width: 200, height: 200), output: (200, 200)),
        row(
            (1, 65535), spec(200, 200, .cover), resize: (1, 65535),
            .crop(x: 0, y: 32668, width: 1, height: 200),
            output: (1, 200)),
        row(
            (1, 65535), spec(200, 200, .cover, enlarging: true), resize: (200, 13_107_000),
            .crop(x: 0, y: 6_553_400, width: 200, height: 200), output: (200, 200)),
        row(
            (65535, 1), spec(200, 200, .cover, position: .entropy), resize: (65535, 1),
            .smartCrop(width: 200, height: 1, interest: .entropy), output: (200, 1)),
        row((1, 1), spec(200, 200, .cover), resize: (1, 1)),
        row((1, 1), spec(200, 200, .cover, enlarging: true), resize: (200, 200)),
    ]

    static let contain: [GeometryRow] = [
        row(
            (400, 300), spec(200, 200, .contain), resize: (200, 150),
            .embed(width: 200, height: 200, x: 0, y: 25, background: .white), output: (200, 200)),
        row(
            (300, 400), spec(200, 200, .contain), resize: (150, 200),
            .embed(width: 200, height: 200, x: 25, y: 0, background: .white), output: (200, 200)),
        row(
            (400, 301), spec(200, 200, .contain), resize: (200, 151),
            .embed(width: 200, height: 200, x: 0, y: 24, background: .white), output: (200, 200)),
        row((400, 200), spec(200, 100, .contain), resize: (200, 100)),
        // Without enlargement the unscaled source is still letterboxed into the whole box, as sharp does.
        row(
            (100, 50), spec(200, 200, .contain), resize: (100, 50),
            .embed(width: 200, height: 200, x: 50, y: 75, background: .white), output: (200, 200)),
        row(
            (100, 50), spec(200, 200, .contain, enlarging: true), resize: (200, 100),
            .embed(width: 200, height: 200, x: 0, y: 50, background: .white), output: (200, 200)),
        row(
            (1, 65535), spec(200, 200, .contain, enlarging: true), resize: (1, 200),
            .embed(width: 200, height: 200, x: 99, y: 0, background: .white), output: (200, 200)),
        row(
            (1, 1), spec(3, 3, .contain), resize: (1, 1),
            .embed(width: 3, height: 3, x: 1, y: 1, background: .white), output: (3, 3)),
    ]

    static let fill: [GeometryRow] = [
        row((400, 300), spec(200, 100, .fill), resize: (200, 100)),
        row((100, 50), spec(200, 100, .fill), resize: (100, 50)),
        row((300, 50), spec(200, 100, .fill), resize: (200, 50)),
        row((100, 50), spec(200, 100, .fill, enlarging: true), resize: (200, 100)),
        row((1, 65535), spec(4096, 4096, .fill), resize: (1, 4096)),
        row((1, 1), spec(4096, 1, .fill, enlarging: true), resize: (4096, 1)),
    ]

    static let inside: [GeometryRow] = [
        row((400, 300), spec(200, 200, .inside), resize: (200, 150)),
        row((300, 400), spec(200, 200, .inside), resize: (150, 200)),
        row((100, 50), spec(200, 200, .inside), resize: (100, 50)),
        row((100, 50), spec(200, 200, .inside, enlarging: true), resize: (200, 100)),
        row((1, 65535), spec(200, 200, .inside), resize: (1, 200)),
        row((65535, 1), spec(200, 200, .inside), resize: (200, 1)),
        row((1, 1), spec(1, 1, .inside), resize: (1, 1)),
    ]

    static let outside: [GeometryRow] = [
        row((400, 300), spec(200, 200, .outside), resize: (267, 200)),
        row((300, 400), spec(200, 200, .outside), resize: (200, 267)),
        row((100, 50), spec(200, 200, .outside), resize: (100, 50)),
        row((300, 100), spec(200, 200, .outside), resize: (300, 100)),
        row((100, 50), spec(200, 200, .outside, enlarging: true), resize: (400, 200)),
        row((1, 65535), spec(4096, 4096, .outside, enlarging: true), resize: (4096, 268_431_360)),
    ]

    /// With one side declared every fit scales to that side, keeping the aspect ratio.
    static let oneSide: [GeometryRow] = [
        row((400, 300), spec(200, nil), resize: (200, 150)),
        row((400, 300), spec(200, nil, .cover), resize: (200, 150)),
        row((400, 300), spec(200, nil, .contain), resize: (200, 150)),
        row((400, 300), spec(200, nil, .fill), resize: (200, 150)),
        row((400, 300), spec(200, nil, .outside), resize: (200, 150)),
        row((400, 300), spec(nil, 100), resize: (133, 100)),
        row((400, 301), spec(200, nil), resize: (200, 151)),
        row((4, 3), spec(2, nil), resize: (2, 2)),
        row((100, 50), spec(200, nil), resize: (100, 50)),
        row((100, 50), spec(200, nil, enlarging: true), resize: (200, 100)),
        row((1, 65535), spec(200, nil), resize: (1, 65535)),
        row((1, 65535), spec(nil, 200), resize: (1, 200)),
        row((65535, 1), spec(200, nil), resize: (200, 1)),
        row((65535, 1), spec(nil, 4096, enlarging: true), resize: (268_431_360, 4096)),
        row((1, 1), spec(nil, 4096), resize: (1, 1)),
        row((1, 1), spec(nil, 4096, enlarging: true), resize: (4096, 4096)),
    ]

    /// Rotation happens first, so the box applies to the rotated source.
    static let rotated: [GeometryRow] = [
        row((400, 300), spec(200, 100, .inside, rotation: .d90), resize: (75, 100)),
        row((400, 300), spec(200, 100, .inside, rotation: .d180), resize: (133, 100)),
        row(
            (400, 300), spec(200, 200, .cover, position: .north, rotation: .d270), resize: (200, 267),
            .crop(x: 0, y: 0, width: 200, height: 200), output: (200, 200)),
        row((100, 50), spec(200, 100, .fill, rotation: .d90, enlarging: true), resize: (200, 100)),
        row((100, 50), spec(200, 100, .fill, rotation: .d90), resize: (50, 100)),
        row((1, 65535), spec(200, nil, rotation: .d90), resize: (200, 1)),
        row(
            (400, 300), spec(200, 200, .contain, rotation: .d270), resize: (150, 200),
            .embed(width: 200, height: 200, x: 25, y: 0, background: .white), output: (200, 200)),
    ]

    @Test(arguments: cover + contain + fill + inside + outside + oneSide + rotated)
    func plansGeometry(row: GeometryRow) {
        let plan = plan(row.source.width, row.source.height, row.spec)
        #expect(plan.rotation == row.spec.rotation)
        #expect(plan.resizeWidth == row.resize.width && plan.resizeHeight == row.resize.height)
        #expect(plan.framing == row.framing)
        #expect(plan.outputWidth == row.output.width && plan.outputHeight == row.output.height)
    }

    @Test(arguments: [
        (spec(200, nil), 0.5), (spec(200, 100, .fill), 0.5), (spec(200, 100, .inside, rotation: .d90), 0.25),
        (spec(200, nil, enlarging: true), 0.5), (spec(800, nil, enlarging: true), 2.0), (spec(800, nil), 1.0),
        (spec(200, 200, .cover), 267.0 / 400.0),
    ])
    func scaleIsTheLargerAxisFactor(spec: VariantSpec, scale: Double) {
        #expect(plan(400, 300, spec).scale == scale)
    }

    // MARK: - Format, quality and alpha

    @Test(arguments: [
        (
            OutputFormat.jpeg, OutputFormat?.some(.png), true, OutputFormat.jpeg, Int?.some(82),
            Colour?.some(.white)
        ),
        (.jpeg, .jpeg, false, .jpeg, 82, nil),
        (.webp, .png, true, .webp, 80, nil),
        (.avif, .jpeg, false, .avif, 60, nil),
        (.png, .jpeg, false, .png, nil, nil),
        (.original, .webp, true, .webp, 80, nil),
        (.original, .avif, false, .avif, 60, nil),
        (.original, .jpeg, false, .jpeg, 82, nil),
        (.original, .png, true, .png, nil, nil),
        (.original, nil, true, .png, nil, nil),
        (.original, nil, false, .jpeg, 82, nil),
        (.original, .original, false, .jpeg, 82, nil),
    ])
    func resolvesFormat(
        declared: OutputFormat, source: OutputFormat?, alpha: Bool, format: OutputFormat, quality: Int?,
        flatten: Colour?
    ) {
        let plan = plan(400, 300, spec(200, nil, format: declared), alpha: alpha, source: source)
        #expect(plan.format == format)
        #expect(plan.quality == quality)
        #expect(plan.flattenOnto == flatten)
    }

    @Test func declaredQualityWinsExceptForPNG() {
        #expect(plan(9, 9, spec(3, nil, format: .webp, quality: 90)).quality == 90)
        #expect(plan(9, 9, spec(3, nil, format: .original, quality: 90), source: .avif).quality == 90)
        #expect(plan(9, 9, spec(3, nil, format: .png, quality: 90)).quality == nil)
    }

    @Test func flattensOntoTheDeclaredBackground() {
        let black = Colour(red: 0, green: 0, blue: 0)
        #expect(plan(9, 9, spec(3, nil, background: black), alpha: true).flattenOnto == black)
    }

    @Test func translucentLetterboxIsFlattenedForJPEGOnly() {
        let clear = Colour(red: 10, green: 20, blue: 30, alpha: 0)
        #expect(plan(400, 300, spec(200, 200, .contain, background: clear)).flattenOnto == clear)
        #expect(plan(400, 300, spec(200, 200, .contain, format: .png, background: clear)).flattenOnto == nil)
        #expect(plan(400, 300, spec(200, 150, .contain, background: clear)).flattenOnto == nil)
        let embedded = plan(400, 300, spec(200, 200, .contain, format: .png, background: clear)).framing
        #expect(embedded == .embed(width: 200, height: 200, x: 0, y: 25, background: clear))
    }

    // MARK: - Invariants over extreme inputs

    @Test func everySizeIsPositiveAndEveryFrameFits() {
        let sides = [1, 2, 3, 7, 4096, 65535]
        let boxes: [(Int?, Int?)] = [(1, nil), (nil, 1), (1, 1), (4096, 4096), (1, 4096), (200, nil), (3, 7)]
        for fit in Fit.allCases {
            for enlarging in [false, true] {
                for rotation in Rotation.allCases {
                    for (width, height) in boxes {
                        for sourceWidth in sides {
                            for sourceHeight in sides {
                                let variant = spec(
                                    width, height, fit, rotation: rotation, enlarging: enlarging)
                                let plan = plan(sourceWidth, sourceHeight, variant)
                                let source =
                                    rotation.swapsSides
                                    ? (sourceHeight, sourceWidth) : (sourceWidth, sourceHeight)
                                expectSound(plan, source: source, spec: variant)
                            }
                        }
                    }
                }
            }
        }
    }

    private func expectSound(_ plan: RenderPlan, source: (width: Int, height: Int), spec: VariantSpec) {
        let context: Comment = "\(source) \(spec)"
        #expect(plan.resizeWidth >= 1 && plan.resizeHeight >= 1, context)
        #expect(plan.outputWidth >= 1 && plan.outputHeight >= 1, context)
        #expect(plan.scale > 0, context)
        if spec.withoutEnlargement {
            #expect(plan.resizeWidth <= source.width && plan.resizeHeight <= source.height, context)
        }
        if let width = spec.width, let height = spec.height, spec.fit != .outside {
            #expect(plan.outputWidth <= width && plan.outputHeight <= height, context)
        }
        switch plan.framing {
        case .none:
            #expect(plan.outputWidth == plan.resizeWidth && plan.outputHeight == plan.resizeHeight, context)
        case .crop(let x, let y, let width, let height):
            #expect(
                x >= 0 && y >= 0 && x + width <= plan.resizeWidth && y + height <= plan.resizeHeight, context)
        case .smartCrop(let width, let height, _):
            #expect(width <= plan.resizeWidth && height <= plan.resizeHeight, context)
        case .embed(let width, let height, let x, let y, _):
            #expect(
                x >= 0 && y >= 0 && x + plan.resizeWidth <= width && y + plan.resizeHeight <= height, context)
        }
    }

    /// The focal point names a point of the whole source, and follows it through the trim and the mirror.
    @Test func focusFollowsTheTrimAndTheMirror() throws {
        let focused = VariantSpec(name: "v", width: 100, height: 100, focus: FocalPoint(x: 0.5, y: 0.5))
        // x 200 of 400 is x 100 of the 300 kept from x 100: the crop starts at 50.
        let trimmed = RenderPlan(
            sourceWidth: 400, sourceHeight: 100, spec: focused, sourceHasAlpha: false, sourceFormat: .jpeg,
            trim: RenderPlan.Region(x: 100, y: 0, width: 300, height: 100))
        #expect(trimmed.resizeWidth == 300 && trimmed.framing == .crop(x: 50, y: 0, width: 100, height: 100))
        let mirrored = VariantSpec(
            name: "v", width: 100, height: 100, flip: .h, focus: FocalPoint(x: 0.3, y: 0.5))
        let plan = RenderPlan(
            sourceWidth: 400, sourceHeight: 100, spec: mirrored, sourceHasAlpha: false, sourceFormat: .jpeg)
        #expect(plan.mirrored && plan.framing == .crop(x: 230, y: 0, width: 100, height: 100))
        // `v` is a half turn and `h`: x 0.3 becomes 0.3 again, y 0.2 becomes 0.8.
        let upsideDown = VariantSpec(
            name: "v", width: 100, height: 100, flip: .v, focus: FocalPoint(x: 0.3, y: 0.2))
        let turned = RenderPlan(
            sourceWidth: 100, sourceHeight: 400, spec: upsideDown, sourceHasAlpha: false, sourceFormat: .jpeg)
        #expect(turned.rotation == .d180 && turned.mirrored)
        #expect(turned.framing == .crop(x: 0, y: 270, width: 100, height: 100))
    }
}
