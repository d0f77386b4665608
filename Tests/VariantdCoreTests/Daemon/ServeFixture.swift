import Foundation
import VariantdTestSupport

/// A store root with sample objects, a bucket directory and a rendition store, in a fresh temp directory.
struct ServeFixture {
    let directory: URL
    var root: URL { directory.appendingPathComponent("store") }
    var out: URL { directory.appendingPathComponent("renditions") }
    var buckets: URL { directory.appendingPathComponent("buckets") }

    init() throws {
        directory = try TestPaths.temporaryDirectory()
        let files = FileManager.default
        for folder in [
            root.appendingPathComponent("up"), buckets, directory.appendingPathComponent("outside"),
        ] {
            try files.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        for name in ["pictures/gradient.jpg", "pictures/truncated.jpg", "other/document.pdf"] {
            let source = TestPaths.samples.appendingPathComponent(name)
            try files.copyItem(at: source, to: root.appendingPathComponent("up/" + source.lastPathComponent))
        }
        let secretPicture = directory.appendingPathComponent("outside/secret.jpg")
        try files.copyItem(
            at: TestPaths.samples.appendingPathComponent("pictures/gradient.jpg"), to: secretPicture)
        try files.createSymbolicLink(
            at: root.appendingPathComponent("up/escape.jpg"), withDestinationURL: secretPicture)
        try files.copyItem(
            at: TestPaths.samples.appendingPathComponent("buckets/post-images.json"),
            to: buckets.appendingPathComponent("post-images.json"))
    }

    /// A 4000 × 3000 noise JPEG (about 5 MB) made with Debian's `vips`: slow enough to keep a slot busy.
    func makeLargePicture(named name: String = "large.jpg") throws {
        let vips = Process()
        vips.executableURL = URL(fileURLWithPath: "/usr/bin/vips")
        vips.arguments = [
            "gaussnoise", root.appendingPathComponent("up/" + name).path + "[Q=80]", "4000", "3000",
        ]
        try vips.run()
        vips.waitUntilExit()
        guard vips.terminationStatus == 0 else { throw DaemonFailure(description: "vips gaussnoise failed") }
    }

    /// The daemon on an ephemeral loopback port, over this fixture.
    func start(_ extra: [String] = [], secret: Bool = true, launcher: [String] = []) throws -> DaemonProcess {
        try DaemonProcess(
            ["--listen", "127.0.0.1:0", "--root", root.path, "--out", out.path, "--buckets", buckets.path]
                + extra,
            directory: directory, secret: secret, launcher: launcher)
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

    static func job(_ source: String, bucket: String = "post-images", id: String = "job-1") -> [String: Any] {
        [
            "id": id, "bucket": bucket, "path": "photos/" + (source as NSString).lastPathComponent,
            "source": source,
        ]
    }
}
