import Foundation
import Synchronization
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdCore

#if canImport(Glibc)
    import Glibc
#endif

/// The decoder children: real decodes through the built binary, and what a crash or a hang costs.
@Suite struct PipelinePoolTests {
    /// A stand-in child that behaves badly in the way given, whatever it is asked.
    ///
    /// Written through a close-on-exec descriptor: a process forked meanwhile by a parallel test must not
    /// keep the file open for writing, or executing it fails with "text file busy".
    private func script(_ body: String) throws -> (path: String, directory: URL) {
        let directory = try TestPaths.temporaryDirectory()
        let path = directory.appendingPathComponent("child.sh").path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o755)
        try #require(descriptor >= 0)
        let text = Array("#!/bin/sh\n\(body)\n".utf8)
        let written = text.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        try #require(written == text.count)
        return (path, directory)
    }

    @Test func decodesInAChild() async throws {
        let pool = PipelinePool.overFiles(.init(executable: TestPaths.variantd, size: 1))
        let path = TestPaths.samples.appendingPathComponent("pictures/orientation-6.jpg").path
        let answer = await pool.fulfil(file: path)
        let metadata = try answer.outcome.get()
        #expect(metadata.width == 200 && metadata.height == 320)
        #expect(metadata.contentType == "image/jpeg")
        #expect((answer.peakResidentKiB ?? 0) > 0)
        await pool.shutdown()
    }

    /// A pool whose idle children were ended decodes again, in a fresh child.
    @Test func aPoolShutDownDecodesAgainInAFreshChild() async throws {
        let pool = PipelinePool.overFiles(.init(executable: TestPaths.variantd, size: 1))
        let path = TestPaths.samples.appendingPathComponent("pictures/gradient.jpg").path
        #expect(await pool.fulfil(file: path).error == nil)
        await pool.shutdown()
        #expect(await pool.fulfil(file: path).error == nil)
        await pool.shutdown()
    }

    /// A render source is hashed where it is downloaded; the pool takes that checksum instead of hashing the
    /// bytes a second time (the answer then has no hash stage, and names the checksum it was given).
    @Test func bytesHandedOnWithTheirChecksumAreNotHashedAgain() async throws {
        let pool = PipelinePool.overFiles(.init(executable: TestPaths.variantd, size: 1))
        defer { Task { await pool.shutdown() } }
        let bytes = try Array(
            Data(contentsOf: TestPaths.samples.appendingPathComponent("pictures/gradient.jpg")))
        let request = ObjectRequest(bucket: "b", path: "gradient.jpg")

        let hashed = await pool.fulfil(RenditionOrder(request, bucket: nil), from: .inHand(.bytes(bytes)))
        #expect(try hashed.outcome.get().checksumSha256 == SHA256.hex(bytes))
        #expect(hashed.timings.byStage[.hash] != nil)

        let handed = await pool.fulfil(
            RenditionOrder(request, bucket: nil), from: .inHand(.bytes(bytes), checksum: SHA256.hex(bytes)))
        #expect(try handed.outcome.get().checksumSha256 == SHA256.hex(bytes))
        #expect(handed.timings.byStage[.hash] == nil)
    }

    /// A file held open since its identity vouched for a checksum is read without hashing; one written in
    /// place since (here with the same bytes) is hashed again, so renditions are never filed under a checksum
    /// the bytes read may not have.
    @Test func aPinnedFileIsHashedOnlyWhenWrittenSince() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("pinned.jpg").path
        let bytes = try Data(contentsOf: TestPaths.samples.appendingPathComponent("pictures/gradient.jpg"))
        try bytes.write(to: URL(fileURLWithPath: path))
        let checksum = SHA256.hex(Array(bytes))
        let pool = PipelinePool.overFiles(.init(executable: TestPaths.variantd, size: 1))
        defer { Task { await pool.shutdown() } }
        let order = RenditionOrder(ObjectRequest(bucket: "b", path: "pinned.jpg"), bucket: nil)

        let untouched = try #require(PinnedFile(path: path))
        let trusted = await pool.fulfil(order, from: RenditionSource(.pinned(untouched, checksum: checksum)))
        #expect(try trusted.outcome.get().checksumSha256 == checksum)
        #expect(trusted.timings.byStage[.hash] == nil)

        let written = try #require(PinnedFile(path: path))
        try await Task.sleep(for: .milliseconds(20))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.write(contentsOf: bytes)
        try handle.close()
        let rehashed = await pool.fulfil(order, from: RenditionSource(.pinned(written, checksum: checksum)))
        #expect(try rehashed.outcome.get().checksumSha256 == checksum)
        #expect(rehashed.timings.byStage[.hash] != nil)
    }

    /// An on-demand rendition wants no placeholder: the child skips the ThumbHash, and the rendition's bytes
    /// are the same as when it computes one, since the decode is sized for the placeholder either way.
    @Test func aRenditionWithoutAPlaceholderHasTheSameBytes() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pool = PipelinePool.overFiles(
            .init(executable: TestPaths.variantd, size: 1),
            renditions: try RenditionFolder(root: directory.path))
        defer { Task { await pool.shutdown() } }
        let bytes = try Array(
            Data(contentsOf: TestPaths.samples.appendingPathComponent("pictures/gradient.jpg")))
        let request = ObjectRequest(bucket: "b", path: "gradient.jpg")
        let spec = try Transform(query: [("width", "24"), ("format", "webp")], accept: nil).spec
        let alone = RenditionOrder(request, rendering: RenditionOutput(spec, wanted: true), among: [])
        let bucket = try BucketDeclaration(
            parsing: #"{"name": "b", "variants": {"v": {"width": 24, "format": "webp"}}}"#.utf8)
        #expect(alone.wantedSpecKeys == RenditionOrder(request, bucket: bucket).wantedSpecKeys)

        let nothingStored = RenditionSource(.inHand(.bytes(bytes), checksum: nil), listed: [])
        let with = await pool.fulfil(RenditionOrder(request, bucket: bucket), from: nothingStored)
        let without = await pool.fulfil(alone, from: nothingStored)
        #expect(try with.outcome.get().thumbhash != nil && with.timings.byStage[.thumbhash] != nil)
        #expect(try without.outcome.get().thumbhash == nil && without.timings.byStage[.thumbhash] == nil)
        #expect(!without.files.isEmpty && without.files.map(\.bytes) == with.files.map(\.bytes))
    }

    @Test func renditionsAreStoredByTheParentAndReusedForTheSameBytes() async throws {
        let store = MemoryRenditions()
        let pool = PipelinePool.overFiles(.init(executable: TestPaths.variantd, size: 1), renditions: store)
        defer { Task { await pool.shutdown() } }
        let bucket = try BucketDeclaration(
            parsing: try Data(
                contentsOf: TestPaths.samples.appendingPathComponent("buckets/post-images.json")))
        let path = TestPaths.samples.appendingPathComponent("pictures/gradient.jpg").path

        let first = try await pool.fulfil(file: path, bucket: bucket).outcome.get()
        let renditions = try #require(first.renditions)
        #expect(store.keys == Set(renditions.values.map(\.key)))
        #expect(store.writeCount == 1)
        #expect(
            renditions.values.allSatisfy {
                $0.key.hasPrefix("\(first.checksumSha256.prefix(2))/\(first.checksumSha256)/")
            })

        let again = try await pool.fulfil(file: path, bucket: bucket).outcome.get()
        #expect(again.renditions == first.renditions)
        #expect(store.writeCount == 1, "stored renditions are reused, not written again")
    }

    @Test func aChildThatAbortsIsRetriedOnceThenItsFileIsQuarantined() async throws {
        let (path, directory) = try script("read line; kill -ABRT $$")
        defer { try? FileManager.default.removeItem(at: directory) }
        let pool = PipelinePool.overFiles(.init(executable: path, size: 1))
        let file = TestPaths.samples.appendingPathComponent("pictures/gradient.jpg").path

        let first = await pool.fulfil(file: file)
        #expect(first.error?.reason == .decoderCrash, "\(String(describing: first.error))")
        #expect(first.error?.code == .unreadablePicture)
        #expect(await pool.crashes == 2)

        let again = await pool.fulfil(file: file)
        #expect(again.error?.reason == .quarantined)
        #expect(await pool.crashes == 2)

        let other = await pool.fulfil(
            file: TestPaths.samples.appendingPathComponent("pictures/gradient.gif").path)
        #expect(other.error?.reason == .decoderCrash)
        #expect(await pool.crashes == 4)
    }

    /// Children killed on three different files within a minute (an OOM killer, an operator's kill, a
    /// library making a call the filter refuses): the host is suspected, the files' quarantine entries are
    /// released, and the answer blames the host, not the file.
    @Test func deathsOnManyDifferentFilesSuspectTheHostNotTheFiles() async throws {
        let (path, directory) = try script("read line; kill -KILL $$")
        defer { try? FileManager.default.removeItem(at: directory) }
        let pool = PipelinePool.overFiles(.init(executable: path, size: 1))
        let pictures = ["gradient.jpg", "gradient.gif", "gradient.webp"].map {
            TestPaths.samples.appendingPathComponent("pictures/" + $0).path
        }
        for picture in pictures.prefix(2) {
            let answer = await pool.fulfil(file: picture)
            #expect(answer.error?.reason == .decoderCrash, "\(String(describing: answer.error))")
            #expect(await pool.fulfil(file: picture).error?.reason == .quarantined, "two deaths: quarantined")
        }
        #expect(!pool.suspicion.isSuspect())

        let third = await pool.fulfil(file: pictures[2])
        #expect(third.error?.code == .internalError, "\(String(describing: third.error))")
        #expect(third.error?.message.contains("the host, not this file, is suspect") == true)
        #expect(pool.suspicion.isSuspect())
        let again = await pool.fulfil(file: pictures[0])
        #expect(again.error?.code == .internalError, "released from the quarantine, and still not blamed")
    }

    /// Good pictures a host fault quarantined (children killed from outside on every file) are tried again
    /// and decoded once the fault ends: the suspicion released their entries, and nothing else holds them.
    @Test func goodPicturesQuarantinedDuringAHostFaultDecodeOnceItEnds() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fault = directory.appendingPathComponent("fault").path
        #expect(FileManager.default.createFile(atPath: fault, contents: nil))
        let (path, scripts) = try script(
            "if [ -e '\(fault)' ]; then read line; kill -KILL $$; fi\nexec '\(TestPaths.variantd)' \"$@\"")
        defer { try? FileManager.default.removeItem(at: scripts) }
        let pool = PipelinePool.overFiles(.init(executable: path, size: 1))
        defer { Task { await pool.shutdown() } }
        let pictures = ["gradient.jpg", "gradient.gif", "gradient.webp"].map {
            TestPaths.samples.appendingPathComponent("pictures/" + $0).path
        }
        for picture in pictures { _ = await pool.fulfil(file: picture) }
        #expect(pool.suspicion.isSuspect())

        try FileManager.default.removeItem(atPath: fault)
        for picture in pictures {
            let answer = await pool.fulfil(file: picture)
            let metadata = try answer.outcome.get()
            #expect(metadata.width == 320 && metadata.height == 200, "\(picture)")
        }
    }

    /// A child that exits before reading the file because it could not confine itself (an open refused
    /// by a failing disk) is the host's fault: a fresh child is started at once, the file is decoded, and
    /// nothing is counted against it. When every start fails the answer says why, and still blames no file.
    @Test func aChildThatCannotConfineItselfIsReplacedAndTheFileNotBlamed() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let starts = directory.appendingPathComponent("starts").path
        // Fails the first two starts with the exit status of an unconfined child, then is variantd.
        let (path, scripts) = try script(
            "echo >> '\(starts)'; [ $(wc -l < '\(starts)') -gt 2 ] || exit 78\nexec '\(TestPaths.variantd)' \"$@\""
        )
        defer { try? FileManager.default.removeItem(at: scripts) }
        let pool = PipelinePool.overFiles(.init(executable: path, size: 1, attemptsPerObject: 1))
        defer { Task { await pool.shutdown() } }
        let picture = TestPaths.samples.appendingPathComponent("pictures/gradient.jpg").path
        let metadata = try await pool.fulfil(file: picture).outcome.get()
        #expect(metadata.width == 320 && metadata.height == 200)
        #expect(await pool.crashes == 0)
        #expect(try String(contentsOfFile: starts, encoding: .utf8).count == 3, "three starts")

        let (never, neverScripts) = try script("exit 78")
        defer { try? FileManager.default.removeItem(at: neverScripts) }
        let failing = PipelinePool.overFiles(.init(executable: never, size: 1))
        let answer = await failing.fulfil(file: picture)
        #expect(answer.error == ChildSlot.unconfined, "\(String(describing: answer.error))")
        #expect(await failing.crashes == 0 && !failing.suspicion.isSuspect())
    }

    /// A child killed while it waits for work (from outside, by an OOM killer) is reaped as it dies: no
    /// zombie waits for its slot's next job.
    @Test func anIdleChildKilledFromOutsideIsReapedAtOnce() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pidFile = directory.appendingPathComponent("pid").path
        let (path, scripts) = try script("echo $$ > '\(pidFile)'\nexec '\(TestPaths.variantd)' \"$@\"")
        defer { try? FileManager.default.removeItem(at: scripts) }
        let pool = PipelinePool.overFiles(.init(executable: path, size: 1))
        defer { Task { await pool.shutdown() } }
        let decoded = await pool.fulfil(
            file: TestPaths.samples.appendingPathComponent("pictures/gradient.jpg").path)
        #expect(decoded.error == nil)
        let child = try #require(
            Int32(
                try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(
                    in: .whitespacesAndNewlines)))
        kill(child, SIGKILL)
        let deadline = ContinuousClock.now + .seconds(30)
        while FileManager.default.fileExists(atPath: "/proc/\(child)"), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(
            !FileManager.default.fileExists(atPath: "/proc/\(child)"), "the killed child is still a zombie")
    }

    /// The queue's pool makes one attempt per claim and the queue allows a job two crashes: one death (a
    /// load-dependent one, or a stop that reached the child) must leave the file to its second claim, not
    /// quarantine it on sight and make the job unreadable after a single crash.
    @Test func oneAttemptPerClaimStillQuarantinesOnlyAfterTheSecondFailure() async throws {
        let (path, directory) = try script("read line; kill -ABRT $$")
        defer { try? FileManager.default.removeItem(at: directory) }
        let pool = PipelinePool.overFiles(.init(executable: path, size: 1, attemptsPerObject: 1))
        let file = TestPaths.samples.appendingPathComponent("pictures/gradient.jpg").path

        let first = await pool.fulfil(file: file)
        #expect(first.error?.reason == .decoderCrash, "\(String(describing: first.error))")
        let second = await pool.fulfil(file: file)
        #expect(second.error?.reason == .decoderCrash, "\(String(describing: second.error))")
        let third = await pool.fulfil(file: file)
        #expect(third.error?.reason == .quarantined, "\(String(describing: third.error))")
    }

    @Test func aChildThatHangsIsKilledAtTheDeadline() async throws {
        let (path, directory) = try script("read line; exec sleep 30")
        defer { try? FileManager.default.removeItem(at: directory) }
        let pool = PipelinePool.overFiles(
            .init(executable: path, size: 1, deadline: .milliseconds(300), attemptsPerObject: 1))
        let answer = await pool.fulfil(
            file: TestPaths.samples.appendingPathComponent("pictures/gradient.jpg").path)
        #expect(answer.error?.reason == .decoderTimeout)
    }

    /// Cancelling the waiting task (the queue worker lost the job's lease) kills the child at once, as the
    /// deadline would, and is no crash: nothing is counted or quarantined. The child would sleep for 50
    /// minutes and its deadline is an hour, past the test run's own limit: an answer at all shows it was
    /// killed, however loaded the machine.
    @Test func cancellingTheTaskKillsItsChild() async throws {
        let (path, directory) = try script("read line; exec sleep 3000")
        defer { try? FileManager.default.removeItem(at: directory) }
        let pool = PipelinePool.overFiles(
            .init(executable: path, size: 1, deadline: .seconds(3600), attemptsPerObject: 2))
        let file = TestPaths.samples.appendingPathComponent("pictures/gradient.jpg").path
        let decode = Task { await pool.fulfil(file: file) }
        try await Task.sleep(for: .milliseconds(300))
        decode.cancel()
        let answer = await decode.value
        #expect(answer.error == ChildSlot.cancelled)
        #expect(await pool.crashes == 0)
    }

    /// The parent writes only the renditions it asked for: a child taken over by a hostile file cannot name
    /// a key that leads out of the store (Landlock denies it every file; the parent's writes must too), nor
    /// make the parent read a negative length, or buffer more than any rendition can be. `nil` names a key
    /// the parent did ask for.
    @Test(arguments: [("../../escaped", 5), (nil, -1), (nil, ChildSlot.maxRenditionBytes + 1)])
    func aChildNamingARenditionItWasNotAskedForIsRefused(key: String?, size: Int) async throws {
        let bucket = try BucketDeclaration(
            parsing: try Data(
                contentsOf: TestPaths.samples.appendingPathComponent("buckets/post-images.json")))
        let source = TestPaths.samples.appendingPathComponent("pictures/gradient.jpg")
        let asked = RenditionKey.make(
            sourceChecksum: SHA256.hex(Array(try Data(contentsOf: source))),
            specKey: RenditionKey.specKey(of: try #require(bucket.variants.first)), fileExtension: "jpg")
        let reply =
            #"{"answer":{"metadata":{"bucket":"b","checksumSha256":"x","contentType":"image/jpeg","#
            + #""path":"p","size":1},"timings":{"seconds":{}}},"written":[{"key":""#
            + (key ?? asked) + #"","size":\#(size)}]}"#
        let (path, directory) = try script(
            "read line; printf '%s\\n' '\(reply)'; printf hello; exec sleep 30")
        defer { try? FileManager.default.removeItem(at: directory) }
        let root = directory.appendingPathComponent("store/renditions")
        let pool = PipelinePool.overFiles(
            .init(executable: path, size: 1, attemptsPerObject: 1),
            renditions: try RenditionFolder(root: root.path))
        let answer = await pool.fulfil(file: source.path, bucket: bucket)
        await pool.shutdown()
        #expect(answer.error?.code == .internalError, "\(String(describing: answer.error))")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("escaped").path))
    }

    @Test func missingSourceIsNotFound() async throws {
        let pool = PipelinePool.overFiles(.init(executable: TestPaths.variantd, size: 1))
        let answer = await pool.fulfil(file: "/nonexistent/file.jpg")
        #expect(answer.error?.code == .notFound)
        await pool.shutdown()
    }
}

/// A rendition store in memory that counts writes: what the pool does through the interface, nothing else.
final class MemoryRenditions: RenditionStore {
    private let files = Mutex<[String: [UInt8]]>([:])
    private let writes = Mutex(0)

    var keys: Set<String> { files.withLock { Set($0.keys) } }
    var writeCount: Int { writes.withLock { $0 } }

    func stored(sourceChecksum: String, specKeys: Set<String>) -> [RenditionFile] {
        files.withLock { files in
            files.filter { key, _ in
                key.hasPrefix(RenditionKey.directory(ofSource: sourceChecksum) + "/")
                    && specKeys.contains(RenditionKey.specKey(ofFileName: key.split(separator: "/").last!))
            }.map { RenditionFile(key: $0.key, bytes: $0.value) }
        }
    }

    func write(_ new: [RenditionFile]) throws(VariantsError) {
        writes.withLock { $0 += 1 }
        files.withLock { files in for file in new { files[file.key] = file.bytes } }
    }
}
