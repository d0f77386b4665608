/// The y axis of a chart: from zero to a round maximum at or above the largest figure, with ticks at
/// 1, 2 or 5 times a power of ten, so the gridlines read as plain numbers.
struct AxisScale: Equatable {
    let maximum: Double
    let step: Double

    init(covering largest: Double, ticks: Int = 5) {
        guard largest > 0, largest.isFinite else {
            maximum = 1
            step = 0.2
            return
        }
        let rough = largest / Double(ticks)
        var magnitude = 1.0
        while magnitude * 10 <= rough { magnitude *= 10 }
        while magnitude > rough { magnitude /= 10 }
        let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= rough } ?? 10 * magnitude
        self.step = step
        maximum = (largest / step).rounded(.up) * step
    }

    /// The tick values from zero to the maximum.
    var ticks: [Double] {
        let count = Int((maximum / step).rounded())
        return (0...count).map { Double($0) * step }
    }
}
