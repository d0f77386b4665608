import Foundation
import Synchronization
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdCore

/// What one render request costs the stores, counted in process: a miss reads and hashes its source once,
/// lists the source's renditions once, renders in one child and answers from the bytes it made; a hit reads
/// no source byte, lists nothing and hashes nothing.
@Suite struct RenderServiceBudgetTests {
    @Test func aMissReadsHashesAndListsOnceAndAHitReadsNoSource() async throws {
        let world = try CountingWorld()
        defer { world.remove() }

        let miss = await world.service.answer(world.get("width=64&format=webp"))
        #expect(miss.status == 200, "\(String(decoding: miss.body, as: UTF8.self))")
        var timings = StageTimings()
        let read = try Pipeline().run(
            RenditionOrder(ObjectRequest(bucket: "pics", path: "rendition.webp"), bucket: nil),
            bytes: miss.body, timings: &timings)
        #expect(read.contentType == "image/webp" && read.width == 64)
        #expect(
            world.counts
                == Counts(sourceReads: 1, sourceHashes: 1, listings: 1, lookups: 0, renditionReads: 0))

        // The rendition's checksum came from the child: the hit sends the file held open, hashing nothing.
        let hit = await world.service.answer(world.get("width=64&format=webp"))
        #expect(hit.status == 200 && hit.spooled != nil)
        #expect(hit.headers.contains { $0.name == "ETag" && $0.value == "\"\(SHA256.hex(miss.body))\"" })
        #expect(
            world.counts
                == Counts(sourceReads: 1, sourceHashes: 1, listings: 1, lookups: 0, renditionReads: 0))

        // Another transform of a source whose checksum is remembered: read once, by the decoder pool from
        // the file held open, and not hashed again.
        let other = await world.service.answer(world.get("width=32&format=png"))
        #expect(other.status == 200)
        #expect(
            world.counts
                == Counts(sourceReads: 2, sourceHashes: 1, listings: 2, lookups: 0, renditionReads: 0))
    }

    /// A source over the hand-over limit is hashed as it is read through the file held open, which goes on
    /// to the decoder pool: read again there, never hashed again.
    @Test func aSourceOverTheHandOverLimitIsHashedOnce() async throws {
        let world = try CountingWorld(padding: HashedSource.handOverLimit)
        defer { world.remove() }
        let miss = await world.service.answer(world.get("width=40&format=jpeg"))
        #expect(miss.status == 200, "\(String(decoding: miss.body, as: UTF8.self))")
        #expect(
            world.counts
                == Counts(sourceReads: 2, sourceHashes: 1, listings: 1, lookups: 0, renditionReads: 0))
        let hit = await world.service.answer(world.get("width=40&format=jpeg"))
        #expect(hit.status == 200)
        #expect(
            world.counts
                == Counts(sourceReads: 2, sourceHashes: 1, listings: 1, lookups: 0, renditionReads: 0))
    }

    /// The numbers a request spent, by kind.
    struct Counts: Equatable {
        /// Reads of the source's bytes: by the render path to hash them, or by the decoder pool.
        var sourceReads: Int
        /// SHA-256 digests of the source: by the render path, or by the pool when it was not told.
        var sourceHashes: Int
        /// Listings of the source's renditions.
        var listings: Int
        /// Look-ups of stored renditions to reuse (a job's; a render hands the pool its listing instead).
        var lookups: Int
        /// Reads of a stored rendition to send it (each hashes it unless its checksum is remembered).
        var renditionReads: Int
    }

    /// A render service over a folder of sources and a folder of renditions, both counted.
    final class CountingWorld: Sendable {
        let directory: URL
        let service: RenderService
        private let sources: CountingSources
        private let objects: CountingObjects
        private let renditions: CountingCatalog

        /// - Parameters:
        ///   - padding: Bytes of nothing after the picture's end, to make a large source of it.
        ///   - declaration: The bucket `pics`'s declaration.
        init(padding: Int = 0, declaration: String = #"{"name": "pics", "public": true}"#) throws {
            directory = try TestPaths.temporaryDirectory()
            let fileManager = FileManager.default
            let root = directory.appendingPathComponent("objects/pics/2026")
            try fileManager.createDirectory(at: root, withIntermediateDirectories: true)
            let source = root.appendingPathComponent("gradient.jpg")
            var bytes = try Data(
                contentsOf: TestPaths.samples.appendingPathComponent("pictures/gradient.jpg"))
            bytes.append(Data(count: padding))
            try bytes.write(to: source)
            // A file changed within the clock's last ticks is hashed again on every request, since a write in
            // the same tick would leave its identity as it is; the test starts once its identity has settled.
            while FileIdentity(path: source.path)?.isSettled != true {
                Thread.sleep(forTimeInterval: 0.1)
            }
            let buckets = directory.appendingPathComponent("buckets")
            try fileManager.createDirectory(at: buckets, withIntermediateDirectories: true)
            try Data(declaration.utf8).write(
                to: buckets.appendingPathComponent("pics.json"))
            let folder = try ObjectFolder(directory.appendingPathComponent("objects").path)
            sources = CountingSources(FolderSources(folder))
            objects = CountingObjects(folder)
            renditions = CountingCatalog(
                try RenditionFolder(root: directory.appendingPathComponent("renditions").path))
            let pool = PipelinePool(
                .init(executable: TestPaths.variantd, size: 1, confined: false), objects: objects,
                renditions: renditions)
            let admission = Admission(slots: 1, waitingCapacity: 4)
            service = RenderService(
                sources: sources, renditions: renditions,
                registry: try BucketRegistry(directory: buckets.path),
                admission: admission, metrics: ServerMetrics(), pool: pool,
                access: RenderAccess(secret: nil, urlKey: nil), maxAge: 60, headers: { _ in [] })
        }

        var counts: Counts {
            Counts(
                sourceReads: sources.reads.load(ordering: .relaxed) + objects.reads.load(ordering: .relaxed),
                sourceHashes: sources.hashes.load(ordering: .relaxed)
                    + objects.reads.load(ordering: .relaxed),
                listings: renditions.listings.load(ordering: .relaxed),
                lookups: renditions.lookups.load(ordering: .relaxed),
                renditionReads: renditions.bodies.load(ordering: .relaxed))
        }

        func get(_ query: String) -> HTTPRequest {
            let path = "/v1/render/pics/2026/gradient.jpg"
            var options: [String: String] = [:]
            for pair in query.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                options[parts[0]] = parts[1]
            }
            return HTTPRequest(
                method: "GET", path: path, target: path + "?" + query, headers: [:], query: options,
                body: .empty,
                bodyTooLarge: false)
        }

        func remove() {
            try? FileManager.default.removeItem(at: directory)
        }
    }

    /// Counts what the render path reads and hashes, and the files it hands the pool held open (each read
    /// there once). A source read through the object store is counted there, and hashed by the pool, as
    /// it is handed over without a checksum.
    final class CountingSources: RenderSources {
        let inner: FolderSources
        let reads = Atomic<Int>(0)
        let hashes = Atomic<Int>(0)

        init(_ inner: FolderSources) { self.inner = inner }

        func rememberedChecksum(of source: String) -> String? { inner.rememberedChecksum(of: source) }

        func checksum(of source: String) throws(VariantsError) -> HashedSource {
            let hashed = try inner.checksum(of: source)
            switch hashed.bytes {
            case .inHand:
                reads.add(1, ordering: .relaxed)
                hashes.add(1, ordering: .relaxed)
            case .pinned:
                reads.add(2, ordering: .relaxed)
                hashes.add(1, ordering: .relaxed)
            case .stored, nil:
                break
            }
            return hashed
        }

        func bytes(of source: String, checksum: String) -> RenditionSource.Bytes {
            let bytes = inner.bytes(of: source, checksum: checksum)
            if case .pinned = bytes { reads.add(1, ordering: .relaxed) }
            return bytes
        }

        func forgetIdentity(of source: String) { inner.forgetIdentity(of: source) }
    }

    final class CountingObjects: ObjectStore {
        let inner: ObjectFolder
        let reads = Atomic<Int>(0)

        init(_ inner: ObjectFolder) { self.inner = inner }

        func check(_ key: String) throws(VariantsError) { try inner.check(key) }

        func read(_ key: String, maxBytes: Int) throws(VariantsError) -> [UInt8] {
            reads.add(1, ordering: .relaxed)
            return try inner.read(key, maxBytes: maxBytes)
        }
    }

    final class CountingCatalog: RenditionCatalog {
        let inner: RenditionFolder
        let listings = Atomic<Int>(0)
        let lookups = Atomic<Int>(0)
        let bodies = Atomic<Int>(0)

        init(_ inner: RenditionFolder) { self.inner = inner }

        func stored(sourceChecksum: String, specKeys: Set<String>) -> [RenditionFile] {
            lookups.add(1, ordering: .relaxed)
            return inner.stored(sourceChecksum: sourceChecksum, specKeys: specKeys)
        }

        func write(_ files: [RenditionFile]) throws(VariantsError) { try inner.write(files) }

        func listing(ofSource checksum: String) -> [String: String] {
            listings.add(1, ordering: .relaxed)
            return inner.listing(ofSource: checksum)
        }

        func file(of key: String) -> String? { inner.file(of: key) }

        func forget(sourceChecksum checksum: String) throws(VariantsError) -> Int {
            try inner.forget(sourceChecksum: checksum)
        }

        func remove(key: String) throws(VariantsError) { try inner.remove(key: key) }

        func body(of key: String) -> RenditionBody? {
            bodies.add(1, ordering: .relaxed)
            return inner.body(of: key)
        }
    }
}

extension RenderService {
    /// The answer to one request, whether it came at once or from a task.
    func answer(_ request: HTTPRequest) async -> HTTPResponse {
        switch respond(to: request) {
        case .now(let response): response
        case .later(let work): await work()
        }
    }
}
