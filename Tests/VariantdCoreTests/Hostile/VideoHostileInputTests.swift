import Foundation
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdCore

/// Broken and lying videos: each gets its typed answer from a decoder child within the deadline and the
/// memory bound, the pool keeps serving, and a video that overruns every attempt is quarantined.
@Suite struct VideoHostileInputTests {
    private static let pool = PipelinePool.overFiles(
        .init(executable: TestPaths.variantd, size: 2, deadline: .seconds(30)))
    /// Peak resident memory a decoder child may reach on any of these files.
    private static let memoryBoundKiB = 1_536 * 1024

    private static let clips = [
        "portrait-h264.mp4", "portrait-hevc.mov", "portrait-vp9.webm", "portrait-av1.webm",
        "portrait-h264.mkv",
    ]
    private static let cuts = [0.01, 0.05, 0.1, 0.3, 0.5, 0.7, 0.9, 0.99]

    private static func clip(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: TestPaths.samples.appendingPathComponent("videos/\(name)")))
    }

    private func failure(for bytes: [UInt8], named name: String, pool: PipelinePool = pool) async throws
        -> VariantsError?
    {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent(name)
        try Data(bytes).write(to: file)
        let answer = await pool.fulfil(file: file.path, bucketName: "hostile")
        #expect(answer.timings.seconds.values.reduce(0, +) < 30)
        #expect((answer.peakResidentKiB ?? 0) < Self.memoryBoundKiB)
        if case .failure(let error) = answer.outcome { return error }
        return nil
    }

    @Test(arguments: clips)
    func truncatedClipsAreUnreadable(clip: String) async throws {
        let bytes = try Self.clip(clip)
        for cut in Self.cuts {
            let prefix = Array(bytes.prefix(max(1, Int(Double(bytes.count) * cut))))
            let error = try #require(
                try await failure(for: prefix, named: clip), "\(clip) cut at \(cut) decoded")
            #expect(error.code == .unreadablePicture, "\(clip) cut at \(cut): \(error)")
            // Eleven bytes of a WebM do not reach its document type: they do not even begin like one.
            let reasons: [VariantsError.Reason] = cut < 0.05 ? [.truncated, .corrupt] : [.truncated]
            #expect(reasons.contains(error.reason ?? .empty), "\(clip) cut at \(cut): \(error)")
        }
    }

    /// A video track whose sample table lists no frame, and a WebM whose clusters never come (its segment
    /// of unknown size, as a live recording's): nothing to show, a typed answer.
    @Test func streamsWithoutFramesAreCorrupt() async throws {
        var mp4 = try Self.clip("portrait-h264.mp4")
        let sizes = try #require(Self.find("stsz", in: mp4))
        mp4.replaceSubrange(sizes + 12..<sizes + 16, with: [0, 0, 0, 0])
        var webm = try Self.clip("portrait-vp9.webm")
        let segment = try #require(Self.find([0x18, 0x53, 0x80, 0x67], in: webm))
        webm.replaceSubrange(segment + 4..<segment + 12, with: [0x01] + Array(repeating: 0xFF, count: 7))
        let cluster = try #require(Self.find([0x1F, 0x43, 0xB6, 0x75], in: webm))
        for (bytes, name) in [(mp4, "empty.mp4"), (Array(webm[..<cluster]), "empty.webm")] {
            let error = try #require(try await failure(for: bytes, named: name), "\(name) decoded")
            #expect(error.code == .unreadablePicture && error.reason == .corrupt, "\(name): \(error)")
        }
    }

    /// A WebM whose track claims 100,000 × 100,000 pixels, and an MP4 whose sample entry claims
    /// 65,535 × 65,535 (the most its 16-bit fields hold): refused from the container, before a decoder opens.
    @Test func claimedGiantFramesAreRefusedFromTheContainer() async throws {
        let webm = try #require(try Self.webm(claimingSide: 100_000))
        let webmError = try #require(try await failure(for: webm, named: "giant.webm"))
        #expect(webmError.reason == .tooManyPixels, "\(webmError)")
        #expect(webmError.message.contains("100000×100000"), "\(webmError)")
        var mp4 = try Self.clip("portrait-h264.mp4")
        let entry = try #require(Self.find("avc1", in: mp4, after: "stsd"))
        mp4.replaceSubrange(entry + 28..<entry + 32, with: [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(try await failure(for: mp4, named: "giant.mp4")?.reason == .tooManyPixels)
    }

    /// A stream in a codec not decoded here (MPEG-4 Part 2, by its sample entry) is refused by name.
    @Test func codecsNotDecodedHereAreRefused() async throws {
        var mp4 = try Self.clip("portrait-h264.mp4")
        let entry = try #require(Self.find("avc1", in: mp4, after: "stsd"))
        mp4.replaceSubrange(entry..<entry + 4, with: Array("mp4v".utf8))
        let error = try #require(try await failure(for: mp4, named: "mpeg4.mp4"))
        #expect(error.reason == .unsupportedFeature && error.message.contains("'mpeg4'"), "\(error)")
        // The pool still decodes.
        #expect(try await failure(for: try Self.clip("portrait-vp9.webm"), named: "fine.webm") == nil)
    }

    /// A video that overruns the deadline on every attempt (here a deadline of nothing) is quarantined and
    /// refused on sight afterwards, before any child sees it.
    @Test func aVideoThatOverrunsEveryAttemptIsQuarantined() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let quarantine = directory.appendingPathComponent("quarantine.sqlite3").path
        let bytes = try Self.clip("portrait-hevc.mov")
        let overdue = PipelinePool.overFiles(
            .init(executable: TestPaths.variantd, size: 1, deadline: .zero, quarantineFile: quarantine))
        #expect(try await failure(for: bytes, named: "slow.mov", pool: overdue)?.reason == .decoderTimeout)
        await overdue.shutdown()
        let next = PipelinePool.overFiles(
            .init(executable: TestPaths.variantd, size: 1, quarantineFile: quarantine))
        #expect(try await failure(for: bytes, named: "slow.mov", pool: next)?.reason == .quarantined)
        #expect(await next.crashes == 0)
        await next.shutdown()
    }

    // MARK: - Helpers

    private static func find(_ pattern: [UInt8], in bytes: [UInt8], from start: Int = 0) -> Int? {
        guard bytes.count >= pattern.count, start <= bytes.count - pattern.count else { return nil }
        return (start...(bytes.count - pattern.count)).first {
            bytes[$0..<$0 + pattern.count].elementsEqual(pattern)
        }
    }

    private static func find(_ box: String, in bytes: [UInt8], after parent: String? = nil) -> Int? {
        let start = parent.flatMap { find(Array($0.utf8), in: bytes) } ?? 0
        return find(Array(box.utf8), in: bytes, from: start)
    }

    /// The VP9 clip with its track's `PixelWidth` and `PixelHeight` rewritten to `side`, the elements holding
    /// them grown to fit, and its segment's size made unknown.
    private static func webm(claimingSide side: Int) throws -> [UInt8]? {
        var bytes = try clip("portrait-vp9.webm")
        guard let segment = find([0x18, 0x53, 0x80, 0x67], in: bytes),
            // The first mention of the `Tracks` ID is the seek head's pointer to it.
            let mention = find([0x16, 0x54, 0xAE, 0x6B], in: bytes),
            let tracks = find([0x16, 0x54, 0xAE, 0x6B], in: bytes, from: mention + 4),
            let video = find([0xE0], in: bytes, from: tracks), bytes[video + 2] == 0xB0,
            bytes[video + 5] == 0xBA
        else { return nil }
        let entry = tracks + 4 + vintLength(bytes[tracks + 4])
        guard bytes[entry] == 0xAE else { return nil }
        let value = [UInt8(0x83)] + [16, 8, 0].map { UInt8(truncatingIfNeeded: side >> $0) }
        let claimed = [0xB0] + value + [0xBA] + value
        // The two 1-byte sizes each become three bytes.
        bytes.replaceSubrange(video + 2..<video + 8, with: claimed)
        for at in [video + 1, entry + 1, tracks + 4] {
            grow(&bytes, vintAt: at, by: claimed.count - 6)
        }
        bytes.replaceSubrange(segment + 4..<segment + 12, with: [0x01] + Array(repeating: 0xFF, count: 7))
        return bytes
    }

    private static func vintLength(_ first: UInt8) -> Int { first.leadingZeroBitCount + 1 }

    /// Adds `delta` to the EBML size at `at`, keeping its width.
    private static func grow(_ bytes: inout [UInt8], vintAt at: Int, by delta: Int) {
        let length = vintLength(bytes[at])
        let marker = 0x80 >> (length - 1)
        let value =
            bytes[at + 1..<at + length].reduce(Int(bytes[at]) & (marker - 1)) { $0 << 8 | Int($1) } + delta
        for index in 0..<length {
            bytes[at + index] = UInt8(truncatingIfNeeded: value >> (8 * (length - 1 - index)))
        }
        bytes[at] |= UInt8(marker)
    }
}
