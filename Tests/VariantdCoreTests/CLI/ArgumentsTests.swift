import Testing

@testable import VariantdCore

@Suite struct ArgumentsTests {
    @Test func readsOptionsInBothSpellingsAndLeavesPositionals() throws {
        var arguments = Arguments(["--bucket", "b.json", "in", "--jobs=4", "--quiet", "more"])
        #expect(try arguments.option("--bucket") == "b.json")
        #expect(try arguments.integer("--jobs", in: 1...64) == 4)
        let quiet = arguments.flag("--quiet")
        #expect(quiet)
        #expect(try arguments.positionals() == ["in", "more"])
    }

    @Test func doubleDashEndsOptions() throws {
        var arguments = Arguments(["--", "--not-an-option"])
        let consumed = arguments.flag("--not-an-option")
        #expect(!consumed)
        #expect(try arguments.positionals() == ["--not-an-option"])
    }

    @Test func reportsMissingValuesUnknownOptionsAndBadNumbers() throws {
        #expect(throws: UsageError("Missing value for '--bucket'")) {
            var arguments = Arguments(["--bucket"])
            _ = try arguments.option("--bucket")
        }
        #expect(throws: UsageError("Unknown option '--frobnicate'")) {
            var arguments = Arguments(["--frobnicate", "x"])
            _ = try arguments.positionals()
        }
        #expect(throws: UsageError("'--jobs' takes a whole number in 1...64, got '0'")) {
            var arguments = Arguments(["--jobs", "0"])
            _ = try arguments.integer("--jobs", in: 1...64)
        }
    }
}
