import Foundation
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdCore

/// `watermark=NAME` over HTTP: the bucket's PNG read from `--buckets`, its bytes part of the rendition's
/// name, an unknown name refused with its own code.
@Suite struct ServeWatermarkTests {
    private static let target = "/v1/render/pics/2026/gradient.jpg?width=120&format=png"

    /// A solid 20 × 10 PNG written by Debian's `vips` in the fixture's bucket folder.
    private func writeLogo(_ fixture: ServeFixture, colour: String) throws {
        let black = fixture.directory.appendingPathComponent("black.v").path
        try run(["vips", "black", black, "20", "10", "--bands", "3"])
        try run([
            "vips", "linear", black, fixture.buckets.appendingPathComponent("logo.png").path, "1", colour,
            "--uchar",
        ])
    }

    private func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "\(arguments.joined(separator: " ")) failed")
    }

    @Test func theLogoNamesTheRendition() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        try fixture.addRenderBuckets()
        try writeLogo(fixture, colour: "255 0 0")
        let pics = #"""
            {"name": "pics", "public": true,
             "watermarks": {"logo": {"file": "logo.png", "position": "southeast", "margin": 4, "opacity": 0.5}}}
            """#
        try Data(pics.utf8).write(to: fixture.buckets.appendingPathComponent("pics.json"))
        let daemon = try fixture.start()

        let plain = try daemon.render(Self.target)
        let marked = try daemon.render(Self.target + "&watermark=logo")
        #expect(plain.status == 200 && marked.status == 200, "\(marked.json)")
        #expect(marked.headers["content-type"] == "image/png")
        #expect(marked.etag != nil && marked.etag != plain.etag)
        #expect(try daemon.render(Self.target + "&watermark=%22logo%22").etag == marked.etag)

        let unknown = try daemon.render(Self.target + "&watermark=nope")
        #expect(unknown.status == 400 && unknown.error == "unknown_watermark", "\(unknown.json)")

        // Another logo under the same name: after a reload, another rendition.
        try writeLogo(fixture, colour: "0 255 0")
        daemon.signal(SIGHUP)
        _ = try daemon.waitForLog(event: "reload")
        let changed = try daemon.render(Self.target + "&watermark=logo")
        #expect(changed.status == 200 && changed.etag != marked.etag && changed.body != marked.body)
    }

    /// A signed URL covers the watermark and the kept metadata: either changed, the signature fails.
    @Test func aSignedURLCoversTheWatermarkAndTheMetadata() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        try fixture.addRenderBuckets()
        try writeLogo(fixture, colour: "255 0 0")
        let vault = #"{"name": "vault", "watermarks": {"logo": {"file": "logo.png"}}}"#
        try Data(vault.utf8).write(to: fixture.buckets.appendingPathComponent("vault.json"))
        let keyPath = try fixture.writeURLKey()
        let daemon = try fixture.start(["--url-key-file", keyPath])
        let target = "/v1/render/vault/2026/gradient.jpg?width=60&watermark=logo&metadata=copyright"
        let signed = try URLKey(file: keyPath).sign(target, expires: Int(Date().timeIntervalSince1970) + 600)
        #expect(try daemon.render(signed).status == 200)
        for (from, to) in [("watermark=logo&", ""), ("metadata=copyright", "metadata=none")] {
            let tampered = try daemon.render(signed.replacingOccurrences(of: from, with: to))
            #expect(tampered.status == 403 && tampered.error == "forbidden", "\(from)")
        }
    }
}
