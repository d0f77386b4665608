import Testing
import Variants

@testable import VariantdCore

/// The memo of query options read: what a hit saves, and what an anonymous client can make it hold.
@Suite struct TransformMemoTests {
    @Test func remembersTheOptionsClientsUse() throws {
        let memo = TransformMemo()
        let options = [("width", "600"), ("format", "webp")]
        let first = try memo.output(options, headers: [:])
        #expect(memo.count == 1)
        let again = try memo.output(options, headers: [:])
        #expect(again.output.specKey == first.output.specKey && memo.count == 1)
        _ = try memo.output([("width", "600"), ("format", "auto")], headers: ["accept": "image/webp"])
        #expect(memo.count == 1, "an answer that follows Accept is not remembered")
        _ = try memo.output([("width", "auto")], headers: ["sec-ch-width": "300"])
        _ = try memo.output([("width", "300"), ("dpr", "auto")], headers: ["sec-ch-dpr": "2"])
        #expect(memo.count == 1, "an answer that follows the client hints is not remembered")
    }

    @Test func varyNamesTheHeadersRead() throws {
        let memo = TransformMemo()
        #expect(try memo.output([("width", "600")], headers: [:]).vary == "Save-Data")
        #expect(try memo.output([("width", "600")], headers: [:]).vary == "Save-Data", "remembered")
        let automatic = try memo.output([("width", "10"), ("format", "auto")], headers: [:])
        #expect(automatic.vary == "Accept, Save-Data")
        let hinted = try memo.output([("width", "auto"), ("dpr", "auto")], headers: [:])
        #expect(hinted.vary == "Sec-CH-DPR, Sec-CH-Width, Sec-CH-Viewport-Width, Save-Data")
    }

    @Test func hintsResolveToTheRenditionOfTheirNumbers() throws {
        let memo = TransformMemo()
        let plain = try memo.output([("width", "600")], headers: [:]).output.specKey
        let device = try memo.output(
            [("width", "auto"), ("dpr", "auto")], headers: ["sec-ch-width": "600", "sec-ch-dpr": "2"])
        #expect(device.output.specKey == plain, "Sec-CH-Width is in device pixels already")
        let viewport = try memo.output(
            [("width", "auto"), ("dpr", "auto")],
            headers: ["sec-ch-viewport-width": "300", "sec-ch-dpr": "2"])
        #expect(viewport.output.specKey == plain)
        let saving = try memo.output([("width", "600")], headers: ["save-data": "on"])
        #expect(saving.output.specKey != plain)
        #expect(saving.output.spec.quality == 62)
        #expect(memo.count == 2, "with and without Save-Data")
        let lowered = try memo.output([("width", "600"), ("quality", "62")], headers: [:])
        #expect(lowered.output.specKey == saving.output.specKey)
    }

    /// `width=64.000…0` (50,000 zeros) is a valid spelling of 64; each such URL remembered would keep 50 KB, so
    /// 4,096 of them, sent by anyone to a public bucket, grew the daemon by 200 MB.
    @Test func doesNotRememberLongSpellings() throws {
        let memo = TransformMemo()
        let short = try memo.output([("width", "64")], headers: [:])
        for digit in 1...9 {
            let long = [("width", "64." + String(repeating: "0", count: 50_000) + String(digit))]
            let read = try memo.output(long, headers: [:])
            #expect(read.output.specKey == short.output.specKey)
        }
        #expect(memo.count == 1)
    }
}
