import Testing

@testable import Charts

@Suite struct AxisScaleTests {
    @Test(arguments: [
        (0.87, 1.0, 0.2), (7.0, 8.0, 2.0), (100.0, 100.0, 20.0), (595.7, 600.0, 200.0), (0.0, 1.0, 0.2),
        (12_345.0, 15_000.0, 5000.0),
    ])
    func theMaximumIsARoundStepAtOrAboveTheLargestFigure(largest: Double, maximum: Double, step: Double) {
        let scale = AxisScale(covering: largest)
        #expect(scale.maximum == maximum)
        #expect(scale.step == step)
        #expect(scale.ticks.first == 0)
        #expect(scale.ticks.last == maximum)
    }

    @Test func figuresKeepAboutThreeSignificantDigits() {
        #expect(FigureText.of(517.6) == "518")
        #expect(FigureText.of(21.44) == "21.4")
        #expect(FigureText.of(4.5) == "4.5")
        #expect(FigureText.of(0.104) == "0.1")
        #expect(FigureText.of(20) == "20")
        #expect(FigureText.of(-1.236) == "-1.24")
    }
}
