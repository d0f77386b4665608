/// `Math.round` as JavaScript defines it: halves go toward +infinity, never to even.
///
/// `x - floor(x)` is exact for every double, so the tie test matches the reference bit for bit,
/// including 0.49999999999999994, where `floor(x + 0.5)` would round the wrong way.
@inline(__always)
func javaScriptRound(_ x: Double) -> Int {
    let floor = x.rounded(.down)
    return Int(x - floor >= 0.5 ? floor + 1 : floor)
}
