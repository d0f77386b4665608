import Foundation
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
        let full = try daemon.render(target)
        let any = try daemon.render(target, headers: ["If-None-Match: *"])
        let tag = try #require(full.etag)
        #expect(full.status == 200 && full.headers["content-length"] == String(full.body.count))
        let head = try daemon.render(target, head: true, headers: ["If-None-Match: \(tag)"])
        let get = try daemon.render(target, headers: ["If-None-Match: W/\(tag)"])
        for answer in [any, head, get] {
            #expect(answer.status == 304 && answer.body.isEmpty && answer.etag == tag)
            #expect(answer.headers["content-length"] == String(full.body.count))
            #expect(answer.headers["content-type"] == nil)
        }
    }

    /// `If-None-Match: *` is false when the source has a current representation (RFC 9110 §13.1.2): a
    /// source that exists is `304` at once, nothing rendered or stored; one that does not is still `404`.
    @Test func ifNoneMatchAnyIsNotModifiedWithoutARender() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        try fixture.addRenderBuckets()
        let daemon = try fixture.start()
        let gradient = "/v1/render/pics/2026/gradient.jpg"
        let any = try daemon.render(gradient + "?width=48&format=png", headers: ["If-None-Match: *"])
        #expect(any.status == 304 && any.body.isEmpty, "\(any.json)")
        // No tag nor length, which only a render would give; a `Content-Length: 0` would say it is empty.
        #expect(any.etag == nil && any.headers["cache-control"] == "public, max-age=86400")
        #expect(any.headers["content-length"] == nil && any.headers["transfer-encoding"] == nil)
        let stored = FileManager.default.enumerator(atPath: fixture.out.path)?.allObjects
            .compactMap { $0 as? String }.filter { !$0.hasPrefix(".tmp") && $0.hasSuffix(".png") }
        #expect(stored ?? [] == [])
        #expect(try daemon.metric("variantd_renders_total") == 0)
        #expect(
            try daemon.metric(line: #"variantd_render_requests_total{outcome="not_modified",code="ok"}"#) == 1
        )
        let missing = try daemon.render(
            "/v1/render/pics/2026/nothing.jpg?width=48", headers: ["If-None-Match: *"])
        #expect(missing.status == 404 && missing.error == "not_found")
        let plain = try daemon.render(gradient + "?width=48&format=png")
        #expect(plain.status == 200)
        #expect(try daemon.metric("variantd_renders_total") == 1)
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
