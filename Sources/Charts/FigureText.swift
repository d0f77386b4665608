/// Figures as a chart writes them: about three significant digits, no locale, no trailing zeros.
enum FigureText {
    static func of(_ value: Double) -> String {
        guard value.isFinite else { return "–" }
        let decimals = abs(value) >= 100 ? 0 : abs(value) >= 10 ? 1 : 2
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int((abs(value) * scale).rounded())
        let sign = value < 0 && scaled > 0 ? "-" : ""
        let whole = scaled / Int(scale)
        var fraction = decimals == 0 ? "" : String(scaled % Int(scale))
        while fraction.count < decimals { fraction = "0" + fraction }
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return sign + String(whole) + (fraction.isEmpty ? "" : "." + fraction)
    }
}
