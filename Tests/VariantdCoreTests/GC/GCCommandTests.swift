import Foundation
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdCore

/// `variantd gc` end to end: the built binary on a planted folder of sources and a rendition folder.
@Suite struct GCCommandTests {
    /// Sources `a.jpg` and `b.jpg`; renditions of a's bytes (live, made two days ago), of bytes no source has
    /// made two days ago (the old orphan) and just now (the young orphan); the store's own hidden files.
    private struct PlantedStores {
        let root: URL
        let live: [String]
        let oldOrphan: [String]
        let youngOrphan: [String]
        let hidden: [String]

        static func checksum(_ text: String) -> String { SHA256.hex(Array(text.utf8)) }

        init() async throws {
            root = try TestPaths.temporaryDirectory()
            try FileManager.default.createDirectory(
                atPath: root.path + "/in/sub", withIntermediateDirectories: true)
            try Data("the bytes of a".utf8).write(to: root.appendingPathComponent("in/a.jpg"))
            try Data("the bytes of b".utf8).write(to: root.appendingPathComponent("in/sub/b.jpg"))
            func keys(_ text: String, _ names: [String]) -> [String] {
                names.map { RenditionKey.directory(ofSource: Self.checksum(text)) + "/" + $0 }
            }
            live = keys("the bytes of a", ["0123456789abcdef.webp", "fedcba9876543210.jpg"])
            oldOrphan = keys("bytes deleted long ago", ["0123456789abcdef.webp", "1111111111111111.avif"])
            youngOrphan = keys("bytes deleted a moment ago", ["0123456789abcdef.webp"])
            hidden = [".tmp/123-leftover", ".quarantine.sqlite3"]
            let twoDaysAgo = Date(timeIntervalSinceNow: -2 * 86_400)
            for key in live + oldOrphan + youngOrphan + hidden {
                let url = root.appendingPathComponent("out/" + key)
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(repeating: 7, count: 1000).write(to: url)
                if !youngOrphan.contains(key) {
                    try FileManager.default.setAttributes(
                        [.modificationDate: twoDaysAgo], ofItemAtPath: url.path)
                }
            }
            // A file changed in the last few milliseconds is hashed but not remembered (a write in the same
            // clock tick would leave its times as they are): the sources are planted before that.
            try await Task.sleep(for: .milliseconds(200))
        }

        func arguments(_ extra: String...) -> [String] {
            [
                "gc", "--root", root.path + "/in", "--out", root.path + "/out", "--data-dir",
                root.path + "/data",
            ]
                + extra
        }

        func exists(_ key: String) -> Bool {
            FileManager.default.fileExists(atPath: root.path + "/out/" + key)
        }

        var sourceFolderOfOldOrphan: String {
            root.path + "/out/" + RenditionKey.directory(ofSource: Self.checksum("bytes deleted long ago"))
        }
    }

    private func summary(_ run: VariantdProcess.Finished) throws -> [String: Any] {
        try #require(
            JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout)")
    }

    @Test func removesExactlyTheOldOrphan() async throws {
        let stores = try await PlantedStores()
        defer { try? FileManager.default.removeItem(at: stores.root) }
        let run = try await VariantdProcess.run(stores.arguments("--grace", "1h", "--json"))
        #expect(run.status == 0, "\(run.stderr)")
        let totals = try summary(run)
        #expect(totals["removed"] as? Int == 2)
        #expect(totals["keptLive"] as? Int == 2)
        #expect(totals["keptYoung"] as? Int == 1)
        #expect(totals["bytesFreed"] as? Int == 2000)
        #expect(totals["sourcesHashed"] as? Int == 2)
        #expect(totals["sourcesReused"] as? Int == 0)
        #expect(totals["dryRun"] as? Bool == false)
        for key in stores.oldOrphan { #expect(!stores.exists(key), "\(key)") }
        #expect(!FileManager.default.fileExists(atPath: stores.sourceFolderOfOldOrphan))
        for key in stores.live + stores.youngOrphan + stores.hidden { #expect(stores.exists(key), "\(key)") }
        #expect(FileManager.default.fileExists(atPath: stores.root.path + "/data/gc.sqlite3"))
    }

    @Test func dryRunRemovesNothingButNamesWhatWouldGo() async throws {
        let stores = try await PlantedStores()
        defer { try? FileManager.default.removeItem(at: stores.root) }
        let run = try await VariantdProcess.run(stores.arguments("--dry-run"))
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        let named = lines.filter { $0.hasPrefix("would remove ") }
        #expect(named.count == 2)
        for key in stores.oldOrphan {
            #expect(named.contains { $0.contains(key) }, "\(key)")
        }
        #expect(
            lines.last?.hasPrefix("gc: would remove 2 renditions (2.0 kB to free)") == true, "\(run.stdout)")
        for key in stores.live + stores.oldOrphan + stores.youngOrphan + stores.hidden {
            #expect(stores.exists(key), "\(key)")
        }
    }

    @Test func noGraceTakesTheYoungOrphanToo() async throws {
        let stores = try await PlantedStores()
        defer { try? FileManager.default.removeItem(at: stores.root) }
        let run = try await VariantdProcess.run(stores.arguments("--grace", "0s", "--json"))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try summary(run)["removed"] as? Int == 3)
        for key in stores.oldOrphan + stores.youngOrphan { #expect(!stores.exists(key), "\(key)") }
        for key in stores.live + stores.hidden { #expect(stores.exists(key), "\(key)") }
    }

    @Test func aSecondRunReusesTheStateFile() async throws {
        let stores = try await PlantedStores()
        defer { try? FileManager.default.removeItem(at: stores.root) }
        let first = try await VariantdProcess.run(stores.arguments("--json"))
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try summary(first)["sourcesHashed"] as? Int == 2)
        let second = try await VariantdProcess.run(stores.arguments("--json"))
        #expect(second.status == 0, "\(second.stderr)")
        let totals = try summary(second)
        #expect(totals["sourcesHashed"] as? Int == 0)
        #expect(totals["sourcesReused"] as? Int == 2)
        #expect(totals["removed"] as? Int == 0)
        #expect(totals["keptLive"] as? Int == 2)
    }

    /// A source deleted since the last run takes its renditions with it; one rewritten is hashed again.
    @Test func aDeletedSourceLeavesItsRenditionsToTheNextRun() async throws {
        let stores = try await PlantedStores()
        defer { try? FileManager.default.removeItem(at: stores.root) }
        let first = try await VariantdProcess.run(stores.arguments("--json"))
        #expect(first.status == 0, "\(first.stderr)")
        try FileManager.default.removeItem(atPath: stores.root.path + "/in/a.jpg")
        try Data("other bytes of b".utf8).write(to: stores.root.appendingPathComponent("in/sub/b.jpg"))
        let second = try await VariantdProcess.run(stores.arguments("--json"))
        #expect(second.status == 0, "\(second.stderr)")
        let totals = try summary(second)
        #expect(totals["sourcesHashed"] as? Int == 1)
        #expect(totals["sourcesReused"] as? Int == 0)
        #expect(totals["removed"] as? Int == 2)
        for key in stores.live + stores.oldOrphan { #expect(!stores.exists(key), "\(key)") }
        for key in stores.youngOrphan + stores.hidden { #expect(stores.exists(key), "\(key)") }
    }

    /// The rendition store and the state file inside the walked folder are not sources.
    @Test func aStoreInsideTheRootIsNotWalked() async throws {
        let stores = try await PlantedStores()
        defer { try? FileManager.default.removeItem(at: stores.root) }
        let arguments = [
            "gc", "--root", stores.root.path, "--out", stores.root.path + "/out", "--data-dir",
            stores.root.path + "/data", "--json",
        ]
        let first = try await VariantdProcess.run(arguments)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try summary(first)["sourcesHashed"] as? Int == 2)
        #expect(try summary(first)["removed"] as? Int == 2)
        let second = try await VariantdProcess.run(arguments)
        #expect(try summary(second)["sourcesReused"] as? Int == 2)
        #expect(try summary(second)["sourcesHashed"] as? Int == 0)
        for key in stores.live + stores.youngOrphan { #expect(stores.exists(key), "\(key)") }
    }

    @Test func aStoreThatCannotBeReachedRemovesNothing() async throws {
        let stores = try await PlantedStores()
        defer { try? FileManager.default.removeItem(at: stores.root) }
        let run = try await VariantdProcess.run([
            "gc", "--root", stores.root.path + "/not-mounted", "--out", stores.root.path + "/out", "--grace",
            "0s", "--data-dir", stores.root.path + "/data",
        ])
        #expect(run.status == 75)
        #expect(run.stderr.contains("cannot be reached"), "\(run.stderr)")
        for key in stores.live + stores.oldOrphan + stores.youngOrphan {
            #expect(stores.exists(key), "\(key)")
        }
    }

    @Test func objectStorageThatDoesNotAnswerIsATemporaryFailure() async throws {
        let stores = try await PlantedStores()
        defer { try? FileManager.default.removeItem(at: stores.root) }
        let closed = try LoopbackPorts.free(1)[0]
        let run = try await VariantdProcess.run(
            [
                "gc", "--root", "s3://somebucket/in", "--out", stores.root.path + "/out", "--grace", "0s",
                "--data-dir", stores.root.path + "/data",
            ],
            environment: [
                "AWS_ACCESS_KEY_ID": "AKIAEXAMPLE", "AWS_SECRET_ACCESS_KEY": "secret",
                "AWS_REGION": "us-east-1",
                "AWS_ENDPOINT_URL_S3": "http://127.0.0.1:\(closed)",
            ])
        #expect(run.status == 75, "\(run.stderr)")
        #expect(run.stderr.contains("object storage"), "\(run.stderr)")
        for key in stores.live + stores.oldOrphan + stores.youngOrphan {
            #expect(stores.exists(key), "\(key)")
        }
    }

    @Test(arguments: [
        ["gc", "--out", "/tmp"], ["gc", "--root", "/tmp"],
        ["gc", "--root", "/a", "--out", "/b", "--grace", "1w"],
        ["gc", "--root", "/a", "--out", "/b", "extra"],
    ])
    func aWrongCommandLineIsAUsageError(arguments: [String]) async throws {
        let run = try await VariantdProcess.run(arguments)
        #expect(run.status == 64)
        #expect(run.stderr.contains("Usage: variantd gc"), "\(run.stderr)")
    }
}
