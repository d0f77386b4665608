import Foundation
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdCore

/// `width=auto`, `dpr=auto` and `Save-Data` on `GET /v1/render`, over real HTTP and from a real browser.
@Suite struct ClientHintsTests {
    private static let gradient = "/v1/render/pics/2026/gradient.jpg"

    private func started(_ fixture: ServeFixture) throws -> DaemonProcess {
        try fixture.addRenderBuckets()
        return try fixture.start()
    }

    /// The spec key of a transform asked for without hints.
    private func specKey(_ options: [(String, String)]) throws -> String {
        RenditionKey.specKey(of: try Transform(query: options, accept: nil).spec)
    }

    /// The spec keys of the renditions in the store.
    private func storedSpecKeys(_ fixture: ServeFixture) -> Set<String> {
        let files = FileManager.default.enumerator(atPath: fixture.out.path)?.allObjects as? [String] ?? []
        return Set(files.map { (($0 as NSString).lastPathComponent as NSString).deletingPathExtension })
    }

    @Test func hintsAnswerTheRenditionOfTheirNumbers() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let daemon = try started(fixture)
        let plain = try daemon.render(Self.gradient + "?width=300")
        #expect(plain.status == 200 && plain.headers["vary"] == "Save-Data")
        #expect(plain.headers["accept-ch"] == "Sec-CH-DPR, Sec-CH-Width, Sec-CH-Viewport-Width")
        let target = Self.gradient + "?width=auto&dpr=auto"
        let device = try daemon.render(target, headers: ["Sec-CH-Width: 300", "Sec-CH-DPR: 2"])
        #expect(device.status == 200 && device.etag == plain.etag, "Sec-CH-Width is in device pixels")
        #expect(device.headers["vary"] == "Sec-CH-DPR, Sec-CH-Width, Sec-CH-Viewport-Width, Save-Data")
        let viewport = try daemon.render(target, headers: ["Sec-CH-Viewport-Width: 150", "Sec-CH-DPR: 2"])
        #expect(viewport.etag == plain.etag, "Sec-CH-Viewport-Width is in CSS pixels")
        // Without hints, `auto` is the picture's own size at a ratio of 1.
        let natural = try daemon.render(Self.gradient + "?format=jpeg")
        #expect(try daemon.render(target).etag == natural.etag)
        #expect(try daemon.metric(line: #"variantd_render_requests_total{outcome="miss",code="ok"}"#) == 2)
        let declared = try daemon.render(Self.gradient + "?variant=thumb")
        #expect(declared.headers["vary"] == nil && declared.headers["accept-ch"] == nil)
    }

    @Test func saveDataGetsFewerBytes() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let daemon = try started(fixture)
        let target = Self.gradient + "?width=300&format=webp"
        let full = try daemon.render(target)
        let saving = try daemon.render(target, headers: ["Save-Data: on"])
        #expect(full.status == 200 && saving.status == 200)
        #expect(saving.body.count < full.body.count, "\(saving.body.count) ≥ \(full.body.count)")
        #expect(saving.headers["vary"] == "Save-Data" && saving.etag != full.etag)
        // One step lower: WebP's 80 becomes 60, the same rendition as asking for 60.
        #expect(try daemon.render(target + "&quality=60").etag == saving.etag)
        #expect(try daemon.render(target, headers: ["Save-Data: on"]).etag == saving.etag, "remembered")
    }

    /// The page server of the browser test: answers `/page` with an `<img>` of the daemon's transform,
    /// `Accept-CH` so that the browser sends the hints, and a `Permissions-Policy` that lets it send them to
    /// the daemon's origin (another port, so another origin).
    private static let pageServer = """
        import http.server, sys
        image = sys.argv[1]
        origin = image.split('/v1/')[0]
        page = ('<!doctype html><html><body><img src="%s" sizes="150px" width="150"></body></html>' % image)
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                self.send_response(200)
                self.send_header('Content-Type', 'text/html')
                self.send_header('Accept-CH', 'Sec-CH-DPR, Sec-CH-Width, Sec-CH-Viewport-Width')
                self.send_header('Permissions-Policy', ', '.join(
                    '%s=(self "%s")' % (hint, origin) for hint in ['ch-dpr', 'ch-width', 'ch-viewport-width']))
                self.end_headers()
                self.wfile.write(page.encode())
            def log_message(self, *args):
                pass
        server = http.server.HTTPServer(('127.0.0.1', 0), Handler)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """

    @Test(.enabled(if: Chromium.isAvailable, "chromium is absent (Debian's chromium; run scripts/setup.sh)"))
    func aBrowserAtTwiceTheDensityGetsTheTwiceRendition() async throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let daemon = try started(fixture)
        let image = "http://\(daemon.address)\(Self.gradient)?width=auto&dpr=auto"
        let server = try ScriptedServer(Self.pageServer, arguments: [image])
        defer { server.stop() }
        _ = try await Chromium.dumpDOM(
            URL(string: "http://127.0.0.1:\(server.port)/page")!, arguments: ["--force-device-scale-factor=2"]
        )
        _ = try daemon.waitForLog(event: "render", timeout: .seconds(60))
        // 150 CSS pixels at 2 device pixels each: the rendition of width=300, and not of 150.
        let stored = storedSpecKeys(fixture)
        #expect(stored.contains(try specKey([("width", "300")])), "\(stored)")
        #expect(!stored.contains(try specKey([("width", "150")])))
    }
}
