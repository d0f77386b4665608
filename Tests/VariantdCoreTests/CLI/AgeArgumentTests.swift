import Testing

@testable import VariantdCore

@Suite struct AgeArgumentTests {
    @Test(arguments: [("45s", 45), ("30m", 1800), ("12h", 43_200), ("7d", 604_800)])
    func readsAnAgeWithItsUnit(text: String, seconds: Int64) throws {
        #expect(try AgeArgument.parse(text, option: "--retain") == .seconds(seconds))
    }

    @Test(arguments: ["", "7", "d", "-1d", "0d", "7w", "1.5h", "99999999d"])
    func refusesAnythingElse(text: String) {
        #expect(throws: UsageError.self) { try AgeArgument.parse(text, option: "--retain") }
    }
}

@Suite struct GraceArgumentTests {
    @Test func noneAtAllIsAnAgeWhereAllowed() throws {
        #expect(try AgeArgument.parse("0s", option: "--grace", allowingZero: true) == .zero)
        #expect(throws: UsageError.self) { try AgeArgument.parse("0s", option: "--retain") }
        #expect(throws: UsageError.self) {
            try AgeArgument.parse("+5s", option: "--grace", allowingZero: true)
        }
    }
}
