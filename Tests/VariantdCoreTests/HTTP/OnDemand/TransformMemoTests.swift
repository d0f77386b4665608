import Testing
import Variants

@testable import VariantdCore

/// The memo of query options read: what a hit saves, and what an anonymous client can make it hold.
@Suite struct TransformMemoTests {
    @Test func remembersTheOptionsClientsUse() throws {
        let memo = TransformMemo()
        let options = [("width", "600"), ("format", "webp")]
        let first = try memo.output(options, accept: nil)
        #expect(memo.count == 1)
        let again = try memo.output(options, accept: nil)
        #expect(again.output.specKey == first.output.specKey && memo.count == 1)
        _ = try memo.output([("width", "600"), ("format", "auto")], accept: "image/webp")
        #expect(memo.count == 1, "an answer that follows Accept is not remembered")
    }

    /// `width=64.000…0` (50,000 zeros) is a valid spelling of 64; each such URL remembered would keep 50 KB, so
    /// 4,096 of them, sent by anyone to a public bucket, grew the daemon by 200 MB.
    @Test func doesNotRememberLongSpellings() throws {
        let memo = TransformMemo()
        let short = try memo.output([("width", "64")], accept: nil)
        for digit in 1...9 {
            let long = [("width", "64." + String(repeating: "0", count: 50_000) + String(digit))]
            let read = try memo.output(long, accept: nil)
            #expect(read.output.specKey == short.output.specKey)
        }
        #expect(memo.count == 1)
    }
}
