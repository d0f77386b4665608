import Foundation
import Testing
import VariantdTestSupport

/// The contact sheet of the Samples run, opened in headless Chromium: the page loads with no error, every
/// image decodes, and the truncated sample is listed among the errors.
@Suite struct ContactSheetBrowserTests {
    private static let bucket = TestPaths.samples.appendingPathComponent("buckets/post-images.json").path

    /// Runs in the page before anything else: records script errors, failed loads (caught on their way
    /// down to the image) and content-security-policy violations, turns every lazy image eager (so the
    /// load event waits for all of them), and at the load event writes what it saw as JSON into
    /// `<pre id="harness">`, which `--dump-dom` returns.
    private static let harness = """
        <script>
        const seen = [];
        addEventListener("error", e =>
          seen.push(e.message || "failed to load " + (e.target && e.target.src)), true);
        addEventListener("securitypolicyviolation", e => seen.push("CSP blocked " + e.blockedURI));
        addEventListener("unhandledrejection", e => seen.push("unhandled " + e.reason));
        for (const level of ["error", "warn"]) {
          const original = console[level];
          console[level] = (...words) => { seen.push(level + ": " + words.join(" ")); original(...words); };
        }
        addEventListener("DOMContentLoaded", () => {
          for (const image of document.images) image.loading = "eager";
        });
        addEventListener("load", () => {
          const groups = [...document.querySelectorAll("details.group")].map(group => ({
            title: group.querySelector("summary").textContent,
            files: [...group.querySelectorAll("li code")].map(code => code.textContent)
          }));
          const out = document.createElement("pre");
          out.id = "harness";
          out.textContent = JSON.stringify({
            errors: seen, groups,
            images: [...document.images].map(image => ({
              src: image.src.slice(0, 80), complete: image.complete, width: image.naturalWidth
            }))
          });
          document.body.append(out);
        });
        </script>
        """

    private struct Seen: Decodable {
        struct Group: Decodable {
            var title: String
            var files: [String]
        }
        struct Image: Decodable {
            var src: String
            var complete: Bool
            var width: Int
        }
        var errors: [String]
        var groups: [Group]
        var images: [Image]
    }

    @Test(.enabled(if: Chromium.isAvailable, "chromium is absent (Debian's chromium; run scripts/setup.sh)"))
    func theSamplesReportLoadsCleanlyAndListsTheTruncatedSample() async throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let output = root.appendingPathComponent("out")
        let batch = try await VariantdProcess.run([
            "batch", "--bucket", Self.bucket, "--out", output.path, "--jobs", "2", "--quiet", "--report",
            TestPaths.samples.path,
        ])
        #expect(batch.status == 0, "\(batch.stderr)")
        let report = output.appendingPathComponent("report.html")
        let page = try String(contentsOf: report, encoding: .utf8)

        // The harness runs first, and only the script policy is opened for it: images and styles stay
        // under the page's own policy, so a reference to anything but the store or data: would show up.
        let relaxed = page.replacingOccurrences(
            of: "default-src 'none';", with: "default-src 'none'; script-src 'unsafe-inline';")
        #expect(relaxed != page)
        let checked = output.appendingPathComponent("harness.html")
        try Data(relaxed.replacingOccurrences(of: "<head>\n", with: "<head>\n" + Self.harness + "\n").utf8)
            .write(to: checked)
        let dom = try await Chromium.dumpDOM(checked)
        let json = try #require(
            dom.range(of: #"<pre id="harness">"#).flatMap { start in
                dom[start.upperBound...].range(of: "</pre>").map { dom[start.upperBound..<$0.lowerBound] }
            }, "the harness wrote nothing: \(dom.prefix(300))")
        let seen = try JSONDecoder().decode(Seen.self, from: Data(Self.unescaped(String(json)).utf8))

        #expect(seen.errors.isEmpty, "\(seen.errors)")
        // Every picture the manifest says was rendered (those of pictures/, hdr/ and overlay/): a placeholder
        // and three renditions each.
        let manifest = try String(
            contentsOf: output.appendingPathComponent("manifest.jsonl"), encoding: .utf8)
        let rendered = manifest.split(separator: "\n").filter { $0.contains(#""renditions""#) }.count
        #expect(rendered >= 15)
        #expect(seen.images.count == 4 * rendered)
        #expect(seen.images.filter { $0.src.hasPrefix("data:image/png") }.count == rendered)
        for image in seen.images {
            #expect(image.complete && image.width > 0, "\(image.src) did not decode")
        }
        let truncated = try #require(seen.groups.first { $0.files.contains("pictures/truncated.jpg") })
        #expect(truncated.title.hasPrefix("422 unreadable_picture · truncated"))

        let shot = root.appendingPathComponent("shot.png").path
        try await Chromium.screenshot(report, to: shot, width: 1000, height: 800)
        let png = [UInt8](try Data(contentsOf: URL(fileURLWithPath: shot)))
        #expect(png.count > 10_000)
        #expect(png.prefix(8) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        func word(_ at: Int) -> Int { png[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        #expect(word(16) == 1000 && word(20) == 800)
    }

    /// `--dump-dom` serialises the `<pre>`'s text with HTML escapes.
    private static func unescaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
    }
}
