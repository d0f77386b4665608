import Foundation
import Testing
import Variants

@testable import VariantdCore

/// The budget on transforms' renditions over a folder store: the least recently used go first, declared
/// variants never, and renditions found in the folder at start count with their modification time.
@Suite struct OnDemandBudgetTests {
    @Test func removesExactlyTheLeastRecentlyUsedTransformsAndKeepsDeclaredVariants() async throws {
        let world = try World()
        defer { world.remove() }
        let budget = try world.budget(450)
        let declared = try world.plant(world.declaredSpecKey, size: 100)
        let kept = try world.plant("00000000000000a0", size: 100)
        let first = try world.plant("00000000000000a1", size: 100)
        let second = try world.plant("00000000000000a2", size: 100)
        let newest = try world.plant("00000000000000a3", size: 200)
        // A transform may share a declared variant's spec key: it is recorded, and still never removed.
        world.use(declared, size: 100, in: budget)
        world.use(kept, size: 100, in: budget)
        world.use(first, size: 100, in: budget)
        world.use(second, size: 100, in: budget)
        #expect(budget.snapshot == .init(bytes: 400, evictions: 0))
        world.use(kept, size: 100, in: budget)
        world.use(newest, size: 200, in: budget)

        try await settled(budget)
        #expect(budget.snapshot == .init(bytes: 400, evictions: 2))
        #expect(!world.exists(first) && !world.exists(second))
        #expect(world.exists(declared) && world.exists(kept) && world.exists(newest))
        #expect(!budget.isRecorded(first) && !budget.isRecorded(second) && budget.isRecorded(kept))
    }

    @Test func renditionsFoundAtStartCountByTheirModificationTime() async throws {
        let world = try World()
        defer { world.remove() }
        let budget = try world.budget(250)
        let declared = try world.plant(world.declaredSpecKey, size: 100, modified: 1_500_000_000)
        let oldest = try world.plant("00000000000000b0", size: 100, modified: 1_600_000_000)
        let older = try world.plant("00000000000000b1", size: 100, modified: 1_700_000_000)
        let hidden = world.directory + "/" + world.sourceDirectory + "/.00000000000000b2.jpg"
        try Data(count: 100).write(to: URL(fileURLWithPath: hidden))
        let stray = world.root + "/zz/notes.txt"
        try FileManager.default.createDirectory(
            atPath: world.root + "/zz", withIntermediateDirectories: true)
        try Data(count: 100).write(to: URL(fileURLWithPath: stray))

        #expect(budget.recordStored(inFolder: world.root) == 2)
        #expect(budget.snapshot == .init(bytes: 200, evictions: 0))
        #expect(budget.isRecorded(oldest) && budget.isRecorded(older) && !budget.isRecorded(declared))

        let made = try world.plant("00000000000000b3", size: 100)
        world.use(made, size: 100, in: budget)
        try await settled(budget)
        #expect(budget.snapshot == .init(bytes: 200, evictions: 1))
        #expect(!world.exists(oldest))
        #expect(world.exists(older) && world.exists(made) && world.exists(declared))
        #expect(
            FileManager.default.fileExists(atPath: hidden) && FileManager.default.fileExists(atPath: stray))
    }

    /// Removals run in the background: waits until the recorded bytes fit. A rendition's file is removed
    /// and counted before its bytes are let go, so by then every removal of the round is done.
    private func settled(_ budget: OnDemandBudget) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while budget.snapshot.bytes > budget.budget, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// A rendition folder, and a bucket declaring one variant.
    struct World {
        let directory: String
        var root: String { directory + "/renditions" }
        let registry: BucketRegistry
        let declaredSpecKey: String
        let sourceChecksum = "ab" + String(repeating: "c", count: 62)
        var sourceDirectory: String { "renditions/" + RenditionKey.directory(ofSource: sourceChecksum) }

        init() throws {
            directory =
                FileManager.default.temporaryDirectory.appendingPathComponent(
                    "on-demand-budget-\(UUID().uuidString)"
                ).path
            let buckets = directory + "/buckets"
            try FileManager.default.createDirectory(atPath: buckets, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(
                atPath: directory + "/" + "renditions/" + RenditionKey.directory(ofSource: sourceChecksum),
                withIntermediateDirectories: true)
            let pics = #"{"name": "pics", "variants": {"thumb": {"width": 40, "height": 40}}}"#
            try Data(pics.utf8).write(to: URL(fileURLWithPath: buckets + "/pics.json"))
            registry = try BucketRegistry(directory: buckets)
            declaredSpecKey = try #require(registry.declaredSpecKeys.first)
        }

        func budget(_ bytes: Int) throws -> OnDemandBudget {
            OnDemandBudget(
                budget: bytes, index: RenditionIndex(), catalog: try RenditionFolder(root: root),
                registry: registry)
        }

        /// Records a use of the rendition under `key`, as a hit or a render does.
        func use(_ key: String, size: Int, in budget: OnDemandBudget) {
            let specKey = RenditionKey.specKey(ofFileName: key.split(separator: "/").last ?? "")
            budget.record(ofSource: sourceChecksum, specKey: specKey, key: key, size: size)
        }

        /// Writes a rendition of `size` bytes and returns its key.
        func plant(_ specKey: String, size: Int, modified: TimeInterval? = nil) throws -> String {
            let key = RenditionKey.make(
                sourceChecksum: sourceChecksum, specKey: specKey, fileExtension: "jpg")
            let path = root + "/" + key
            try Data(count: size).write(to: URL(fileURLWithPath: path))
            if let modified {
                try FileManager.default.setAttributes(
                    [.modificationDate: Date(timeIntervalSince1970: modified)], ofItemAtPath: path)
            }
            return key
        }

        func exists(_ key: String) -> Bool {
            FileManager.default.fileExists(atPath: root + "/" + key)
        }

        func remove() {
            try? FileManager.default.removeItem(atPath: directory)
        }
    }
}
