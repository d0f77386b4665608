import Foundation
import Testing
import VariantdTestSupport

@testable import VariantdCore

/// `Range` and `If-Range` (RFC 9110 §14): parsed, then answered over real HTTP (curl) by the built daemon.
@Suite struct ByteRangeTests {
    private static let tag = "\"0123abcd\""

    private func answer(_ range: String?, ifRange: String? = nil, size: Int = 1000) -> ByteRange.Answer {
        ByteRange.answer(range: range, ifRange: ifRange, tag: Self.tag, size: size)
    }

    @Test func readsOneRangeOfEachForm() {
        #expect(answer("bytes=0-99") == .part(ByteRange(offset: 0, length: 100)))
        #expect(answer("bytes=100-") == .part(ByteRange(offset: 100, length: 900)))
        #expect(answer("bytes=-500") == .part(ByteRange(offset: 500, length: 500)))
        #expect(answer("bytes=-5000") == .part(ByteRange(offset: 0, length: 1000)))
        #expect(answer("bytes=990-5000") == .part(ByteRange(offset: 990, length: 10)))
        #expect(answer(" Bytes = 7-7 ") == .part(ByteRange(offset: 7, length: 1)))
        #expect(answer("bytes=999-99999999999999999999999") == .part(ByteRange(offset: 999, length: 1)))
        #expect(ByteRange(offset: 100, length: 900).contentRange(of: 1000) == "bytes 100-999/1000")
    }

    @Test func answersTheWholeWhenTheRangeIsIgnored() {
        for ignored in [
            nil, "bytes=0-1,5-6", "bytes=5-1", "items=0-9", "bytes=a-9", "bytes=", "bytes=-", "0-99",
            "bytes=1-2-3",
        ] {
            #expect(answer(ignored) == .whole, "\(ignored ?? "no Range")")
        }
    }

    @Test func refusesARangeWithNoByteInIt() {
        #expect(answer("bytes=1000-") == .unsatisfiable)
        #expect(answer("bytes=1000-2000") == .unsatisfiable)
        #expect(answer("bytes=-0") == .unsatisfiable)
        #expect(answer("bytes=0-0", size: 0) == .unsatisfiable)
        #expect(ByteRange.unsatisfiedRange(of: 1000) == "bytes */1000")
    }

    @Test func ifRangeHoldsOnlyForTheSameStrongTag() {
        #expect(answer("bytes=0-9", ifRange: Self.tag) == .part(ByteRange(offset: 0, length: 10)))
        for other in ["W/" + Self.tag, "\"other\"", "Wed, 02 Dec 2026 09:00:00 GMT"] {
            #expect(answer("bytes=0-9", ifRange: other) == .whole, "\(other)")
        }
    }

    @Test func aRenditionFileIsAnsweredInParts() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        try fixture.addRenderBuckets()
        let daemon = try fixture.start()
        let target = "/v1/render/pics/2026/gradient.jpg?width=320&format=png"
        // The first request is a miss: its part comes from the rendition just made.
        let first = try daemon.render(target, headers: ["Range: bytes=0-99"])
        let whole = try daemon.render(target)
        let size = whole.body.count
        try #require(whole.status == 200 && size > 1000, "\(whole.json)")
        #expect(whole.headers["accept-ranges"] == "bytes")
        try expectParts(of: whole, first: first, daemon: daemon, target: target)
        #expect(
            try daemon.metric(
                line: #"variantd_render_requests_total{outcome="rejected",code="range_not_satisfiable"}"#)
                == 1)
    }

    /// The parts every store must answer alike: `first` was asked with `Range: bytes=0-99`.
    func expectParts(of whole: RenderAnswer, first: RenderAnswer, daemon: DaemonProcess, target: String)
        throws
    {
        let size = whole.body.count
        let tag = try #require(whole.etag)
        #expect(first.status == 206 && first.body == Array(whole.body[0..<100]))
        #expect(first.headers["content-range"] == "bytes 0-99/\(size)")
        #expect(first.headers["content-length"] == "100" && first.etag == tag)
        let tail = try daemon.render(target, headers: ["Range: bytes=100-"])
        #expect(tail.status == 206 && tail.body == Array(whole.body[100...]))
        #expect(tail.headers["content-range"] == "bytes 100-\(size - 1)/\(size)")
        let suffix = try daemon.render(target, headers: ["Range: bytes=-500"])
        #expect(suffix.status == 206 && suffix.body == Array(whole.body[(size - 500)...]))
        #expect(suffix.headers["accept-ranges"] == "bytes")

        let beyond = try daemon.render(target, headers: ["Range: bytes=\(size)-"])
        #expect(beyond.status == 416 && beyond.error == "range_not_satisfiable", "\(beyond.json)")
        #expect(beyond.json["statusCode"] as? Int == 416 && beyond.json["message"] is String)
        #expect(beyond.headers["content-range"] == "bytes */\(size)")

        let head = try daemon.render(target, head: true, headers: ["Range: bytes=0-99"])
        #expect(head.status == 206 && head.body.isEmpty && head.headers["content-length"] == "100")
        #expect(head.headers["content-range"] == "bytes 0-99/\(size)")

        let current = try daemon.render(target, headers: ["Range: bytes=0-99", "If-Range: \(tag)"])
        #expect(current.status == 206 && current.body == first.body)
        for stale in ["W/\(tag)", "\"other\"", "Wed, 02 Dec 2026 09:00:00 GMT"] {
            let answer = try daemon.render(target, headers: ["Range: bytes=0-99", "If-Range: \(stale)"])
            #expect(answer.status == 200 && answer.body == whole.body, "If-Range: \(stale)")
        }
        let several = try daemon.render(target, headers: ["Range: bytes=0-1,5-6"])
        #expect(several.status == 200 && several.body == whole.body)
        let notModified = try daemon.render(target, headers: ["Range: bytes=0-99", "If-None-Match: \(tag)"])
        #expect(notModified.status == 304 && notModified.body.isEmpty)
    }
}
