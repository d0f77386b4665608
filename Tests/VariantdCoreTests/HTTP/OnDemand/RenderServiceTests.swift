import Testing
import VariantdTestSupport

/// What `RenderService` answers beside the rendition itself, over real HTTP (curl) against the built daemon.
@Suite struct RenderServiceTests {
    /// RFC 9110 §8.6: a `304` may carry `Content-Length` only as the `200` would. A `0` there tells a cache
    /// that refreshes its stored headers from the `304` (as RFC 7234 caches do) that the rendition is empty.
    @Test func notModifiedStatesTheRenditionsLength() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        try fixture.addRenderBuckets()
        let daemon = try fixture.start()
        let target = "/v1/render/pics/2026/gradient.jpg?width=64&format=webp"
        // Asked first with `*`: the 304 of a miss, answered once the rendition is made.
        let made = try daemon.render(target, headers: ["If-None-Match: *"])
        let full = try daemon.render(target)
        let tag = try #require(full.etag)
        #expect(full.status == 200 && full.headers["content-length"] == String(full.body.count))
        let head = try daemon.render(target, head: true, headers: ["If-None-Match: \(tag)"])
        let get = try daemon.render(target, headers: ["If-None-Match: W/\(tag)"])
        for answer in [made, head, get] {
            #expect(answer.status == 304 && answer.body.isEmpty && answer.etag == tag)
            #expect(answer.headers["content-length"] == String(full.body.count))
            #expect(answer.headers["content-type"] == nil)
        }
    }

    /// RFC 9110 §5.3: `If-None-Match` given on two lines is one list. Keeping only the last line missed a tag on
    /// the first and sent the whole rendition again.
    @Test func conditionSplitOverLinesIsReadWhole() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        try fixture.addRenderBuckets()
        let daemon = try fixture.start()
        let target = "/v1/render/pics/2026/gradient.jpg?width=64&format=webp"
        let tag = try #require(try daemon.render(target).etag)
        let split = try daemon.render(target, headers: ["If-None-Match: \(tag)", "If-None-Match: \"other\""])
        #expect(split.status == 304 && split.body.isEmpty)
        let neither = try daemon.render(target, headers: ["If-None-Match: \"a\"", "If-None-Match: \"b\""])
        #expect(neither.status == 200)
    }
}
