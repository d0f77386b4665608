import Foundation
import Testing
import VariantdTestSupport

/// A video through the built daemon: on upload its declared variants come from its poster frame and its
/// completion carries the codec and duration; on demand it takes any transform, as a picture does.
@Suite struct ServeVideoTests {
    @Test func aVideoGetsItsVariantsOnUploadAndTransformsOnDemand() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let files = FileManager.default
        let clip = TestPaths.samples.appendingPathComponent("videos/portrait-h264.mp4")
        try files.createDirectory(
            at: fixture.root.appendingPathComponent("clips"), withIntermediateDirectories: true)
        for copy in ["up/portrait-h264.mp4", "clips/portrait-h264.mp4"] {
            try files.copyItem(at: clip, to: fixture.root.appendingPathComponent(copy))
        }
        let clips = """
            {"name": "clips", "public": true, "allowedMimeTypes": ["video/*"], "variants": {
             "poster": {"width": 32, "format": "png"}, "thumb": {"width": 20, "height": 20, "fit": "cover"}}}
            """
        try Data(clips.utf8).write(to: fixture.buckets.appendingPathComponent("clips.json"))
        let daemon = try fixture.start()

        let reply = try daemon.job(ServeFixture.job("up/portrait-h264.mp4", bucket: "clips"))
        #expect(reply.status == 200, "\(reply.text)")
        #expect(reply.json["contentType"] as? String == "video/mp4")
        #expect(reply.json["width"] as? Int == 64 && reply.json["height"] as? Int == 96)
        #expect(reply.json["codec"] as? String == "h264")
        #expect(reply.json["duration"] as? Double == 2)
        let renditions = reply.json["renditions"] as? [String: [String: Any]] ?? [:]
        #expect(renditions["poster"]?["width"] as? Int == 32 && renditions["poster"]?["height"] as? Int == 48)
        #expect(renditions["thumb"]?["contentType"] as? String == "image/jpeg")

        let answer = try daemon.render("/v1/render/clips/portrait-h264.mp4?width=16&format=png")
        #expect(answer.status == 200 && answer.headers["content-type"] == "image/png", "\(answer.json)")
        #expect(Self.pngSize(answer.body) == [16, 24], "portrait, as its display matrix turns it")
    }

    /// Width and height from a PNG's `IHDR`.
    private static func pngSize(_ bytes: [UInt8]) -> [Int] {
        guard bytes.count >= 24 else { return [] }
        return [16, 20].map { at in bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
    }
}
