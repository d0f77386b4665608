import Foundation
import Testing

@testable import VariantdCore
@testable import variantd

/// The help of every subcommand, pinned word for word in `HelpText/<name>.txt` (the overview in
/// `overview.txt`): a change to what users read shows up in review. After a deliberate change, write the
/// new text with `variantd help <name> > Tests/VariantdCoreTests/CLI/HelpText/<name>.txt`.
@Suite struct HelpTextTests {
    private static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("HelpText")

    private func pinned(_ name: String) throws -> String {
        try String(contentsOf: Self.folder.appendingPathComponent(name + ".txt"), encoding: .utf8)
    }

    @Test(arguments: Program.tool.subcommands.map { $0.name })
    func helpIsPinned(subcommand: String) throws {
        let type = try #require(Program.tool.subcommand(named: subcommand))
        #expect(Program.tool.help(for: type) + "\n" == (try pinned(subcommand)))
    }

    @Test func overviewIsPinned() throws {
        #expect(Program.tool.overview + "\n" == (try pinned("overview")))
    }

    @Test func everyPinnedTextBelongsToASubcommand() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path)
        let names = Set(Program.tool.subcommands.map { $0.name } + ["overview"])
        #expect(Set(files.map { String($0.dropLast(4)) }) == names)
    }
}
