import Testing

@testable import Variants

/// The size of an object's one decode, from the plans of its bucket's variants.
struct BaseSizeTests {
    private func plans(_ width: Int, _ height: Int, _ specs: [VariantSpec]) -> [RenderPlan] {
        specs.map {
            RenderPlan(
                sourceWidth: width, sourceHeight: height, spec: $0, sourceHasAlpha: false, sourceFormat: .jpeg
            )
        }
    }

    private func spec(
        _ width: Int, _ height: Int, _ fit: Fit, rotation: Rotation = .d0, enlarging: Bool = false
    )
        -> VariantSpec
    {
        VariantSpec(
            name: "v", width: width, height: height, fit: fit, format: .webp, rotation: rotation,
            withoutEnlargement: !enlarging)
    }

    /// The standard job's three variants: the largest rendition is the decode itself, to the pixel, where the
    /// height's rounding used to make the decode a pixel wider and the 1600 px rendition a second resample.
    @Test(arguments: [
        (4288, 2848, 1600, 1063), (2912, 4368, 1067, 1600), (4128, 2322, 1600, 900), (2725, 2225, 1600, 1306),
    ])
    func largestRenditionIsTheDecode(width: Int, height: Int, baseWidth: Int, baseHeight: Int) {
        let variants = [spec(200, 200, .cover), spec(600, 600, .inside), spec(1600, 1600, .inside)]
        let planned = plans(width, height, variants)
        let base = Pipeline.baseSize(width: width, height: height, plans: planned)
        #expect(base == (baseWidth, baseHeight))
        #expect(planned.contains { $0.resizeWidth == base.width && $0.resizeHeight == base.height })
    }

    /// A stretched rendition is covered on both sides by a decode of the picture's own shape.
    @Test func stretchedRenditionIsCoveredEvenly() {
        let base = Pipeline.baseSize(
            width: 4288, height: 2848, plans: plans(4288, 2848, [spec(1600, 1600, .fill)]))
        #expect(base == (2409, 1600))
    }

    /// A quarter-turned rendition's sides are the decode's the other way round.
    @Test func quarterTurnedRenditionNeedsItsSidesExchanged() {
        let planned = plans(4288, 2848, [spec(1600, 1600, .inside, rotation: .d90)])
        #expect(planned[0].resizeWidth == 1063 && planned[0].resizeHeight == 1600)
        #expect(Pipeline.baseSize(width: 4288, height: 2848, plans: planned) == (1600, 1063))
    }

    /// Enlarging renditions grow from the full-size decode; tiny ones still leave room for the ThumbHash.
    @Test func decodeStaysWithinThePictureAndCoversThePlaceholder() {
        #expect(
            Pipeline.baseSize(
                width: 800, height: 600, plans: plans(800, 600, [spec(1600, 1600, .inside, enlarging: true)]))
                == (800, 600))
        #expect(
            Pipeline.baseSize(width: 4000, height: 3000, plans: plans(4000, 3000, [spec(40, 40, .inside)]))
                == (100, 75))
    }
}
