import Testing

@testable import VariantdCore
@testable import variantd

@Suite struct CommandLineToolTests {
    @Test func overviewListsVisibleSubcommandsOnly() {
        let overview = Program.tool.overview
        #expect(overview.contains("  probe "))
        #expect(!overview.contains("decoder-child"))
        #expect(overview.contains("See 'variantd help <subcommand>' for detailed help."))
    }

    @Test func unknownSubcommandIsAUsageError() async {
        #expect(await Program.tool.main(["frobnicate"]) == .usage)
    }

    @Test func missingArgumentIsAUsageError() async {
        #expect(await Program.tool.main(["probe"]) == .usage)
    }

    @Test func helpSucceeds() async {
        #expect(await Program.tool.main(["help", "probe"]) == .success)
        #expect(await Program.tool.main(["probe", "--help"]) == .success)
    }
}
