import Testing

@testable import VariantdCore

@Suite struct CommandLineToolTests {
    @Test func overviewListsVisibleSubcommandsOnly() {
        let overview = CommandLineTool.overview
        #expect(overview.contains("  probe "))
        #expect(!overview.contains("decoder-child"))
        #expect(overview.contains("See 'variantd help <subcommand>' for detailed help."))
    }

    @Test func unknownSubcommandIsAUsageError() async {
        #expect(await CommandLineTool.main(["frobnicate"]) == .usage)
    }

    @Test func missingArgumentIsAUsageError() async {
        #expect(await CommandLineTool.main(["probe"]) == .usage)
    }

    @Test func helpSucceeds() async {
        #expect(await CommandLineTool.main(["help", "probe"]) == .success)
        #expect(await CommandLineTool.main(["probe", "--help"]) == .success)
    }
}
