import Foundation
import Testing
import VariantdTestSupport

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

    /// A queue that cannot be reached is a temporary failure (75, "run it again"), as Queue.md promises for
    /// `enqueue`, not a bug of variantd's own (70): a script or a unit retrying on 75 must see it.
    @Test func anUnreachableQueueIsATemporaryFailure() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let list = directory.appendingPathComponent("objects.txt").path
        try "a.jpg\n".write(toFile: list, atomically: true, encoding: .utf8)
        let port = try #require(try LoopbackPorts.free(1).first)
        let queue = ["--queue", "postgres://variantd@127.0.0.1:\(port)/queue?connect_timeout=2"]
        for arguments in [
            ["enqueue", "--bucket", "b", "--path", "a.jpg"], ["enqueue", "--bucket", "b", "--from", list],
            ["jobs"],
        ] {
            #expect(await Program.tool.main(arguments + queue) == .temporaryFailure, "\(arguments)")
        }
    }

    @Test func helpSucceeds() async {
        #expect(await Program.tool.main(["help", "probe"]) == .success)
        #expect(await Program.tool.main(["probe", "--help"]) == .success)
    }
}
