import Testing
import VariantdTestSupport

/// `POST /v1/render` bodies over real HTTP (curl) against the built daemon.
@Suite struct RenderRequestTests {
    /// The fields and `transforms` are read by different readers: a key given twice was kept by one as its
    /// first and by the other as its last, so another rendition than the one sent could come back.
    @Test func aBodyKeyGivenTwiceIsRefused() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        try fixture.addRenderBuckets()
        let daemon = try fixture.start()
        let bearer = "Authorization: Bearer \(DaemonProcess.secret)"
        let fields = #"{"bucket": "pics", "path": "a.jpg", "source": "pics/2026/gradient.jpg", "#
        let bodies = [
            fields + #""transforms": {"width": 10}, "transforms": {"width": 20}}"#,
            fields + #""variant": "thumb", "variant": "large"}"#,
            fields + #""source": "up/gradient.jpg", "transforms": {"width": 10}}"#,
        ]
        let keys = ["transforms", "variant", "source"]
        for (body, key) in zip(bodies, keys) {
            let answer = try daemon.render("/v1/render", headers: [bearer], body: body)
            #expect(answer.status == 400 && answer.error == "invalid_request", "\(key): \(answer.json)")
            #expect(answer.json["message"] as? String == "\(key): a key given twice")
        }
        let once = try daemon.render(
            "/v1/render", headers: [bearer], body: fields + #""transforms": {"width": 10}}"#)
        #expect(once.status == 200 && once.headers["content-type"] == "image/jpeg")
    }
}
