import Testing

@testable import ThumbHash

/// `Math.round`: halves toward +infinity, which differs from Swift's `.rounded()` on negative halves and
/// from `floor(x + 0.5)` just below one half.
@Suite struct JavaScriptRoundTests {
    @Test(arguments: [
        (0.5, 1), (1.5, 2), (2.5, 3), (-0.5, 0), (-1.5, -1), (-2.5, -2),
        (0.49999999999999994, 0), (7.499999999999999, 7), (14.5, 15), (-0.4, 0), (3, 3),
    ])
    func roundsLikeJavaScript(value: Double, expected: Int) {
        #expect(javaScriptRound(value) == expected)
    }
}
