import Foundation
import Testing

@testable import VariantdCore

/// Who may render, over real HTTP against the built daemon: `POST /v1/render` names any file under the root,
/// so it asks for the bearer secret exactly as `POST /v1/jobs` does; a render URL of a private bucket is
/// opened by the secret or a signature, and refused without either.
@Suite struct RenderAccessTests {
    private static let post =
        #"{"bucket": "pics", "path": "a/b.jpg", "source": "up/gradient.jpg", "transforms": {"width": 64}}"#
    private static let privateURL = "/v1/render/vault/2026/gradient.jpg?width=60"

    private func started(_ fixture: ServeFixture) throws -> DaemonProcess {
        try fixture.addRenderBuckets()
        return try fixture.start()
    }

    /// A caller without the secret is challenged (`401`, `WWW-Authenticate: Bearer`) before its body is read,
    /// a malformed one included, and is answered what a job without it is answered.
    @Test func postAsksForTheSecretAsAJobDoes() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let daemon = try started(fixture)
        let malformed = #"{"bucket": "Pics"}"#
        for authorization in [
            nil, "Bearer wrong-secret-0123456789abcd", "Basic " + DaemonProcess.secret,
            "Bearer " + DaemonProcess.secret + "x",
        ] {
            let job = try daemon.job(ServeFixture.job("up/gradient.jpg"), authorization: authorization)
            for body in [Self.post, malformed] {
                let render = try daemon.send(
                    "POST", "/v1/render", body: Array(body.utf8), authorization: authorization)
                #expect(render.status == 401 && render.error == "unauthorized", "\(authorization ?? "none")")
                #expect(render.authenticate == "Bearer")
                #expect(render.status == job.status && render.error == job.error)
            }
        }
        let admitted = try daemon.send("POST", "/v1/render", body: Array(Self.post.utf8))
        #expect(admitted.status == 200 && admitted.contentType == "image/jpeg")
        let challenged = #"variantd_render_requests_total{outcome="rejected",code="unauthorized"}"#
        #expect(try daemon.metric(line: challenged) == 8)
    }

    /// A signature is not a credential challenge: a private bucket's URL without the secret or a valid one is
    /// `403 forbidden`, with or without a wrong secret, and no `WWW-Authenticate`.
    @Test func aPrivateURLWithoutTheSecretOrASignatureIsForbidden() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let daemon = try started(fixture)
        for headers in [[], ["Authorization: Bearer wrong-secret-0123456789abcd"]] {
            let refused = try daemon.render(Self.privateURL, headers: headers)
            #expect(refused.status == 403 && refused.error == "forbidden")
            #expect(refused.headers["www-authenticate"] == nil)
        }
        let bearer = try daemon.render(
            Self.privateURL, headers: ["Authorization: Bearer \(DaemonProcess.secret)"])
        #expect(bearer.status == 200)
    }
}
