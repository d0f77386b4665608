import Foundation
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdCore
@testable import variantd

#if canImport(Glibc)
    import Glibc
#endif

/// `variantd batch` end to end: the built binary on a temporary folder of mixed files.
@Suite struct BatchCommandTests {
    private static let bucket = TestPaths.samples.appendingPathComponent("buckets/post-images.json").path

    /// A folder of pictures, a PDF, a truncated JPEG, a PDF named `.jpg` and nested folders, and the
    /// outcome each file must get (nil: metadata and renditions). The bucket takes `image/*` only, and its
    /// policy is checked on the sniffed type first, as in the daemon: the PDF named `.jpg` is refused as a
    /// PDF (415), not reported as an unreadable picture.
    private struct MixedFolder {
        let root: URL
        let expected: [String: (error: String, reason: String?)?]

        init() throws {
            root = try TestPaths.temporaryDirectory()
            let sources: [(String, String)] = [
                ("gradient.jpg", "pictures/gradient.jpg"),
                ("gradient-alpha.png", "pictures/gradient-alpha.png"),
                ("hopper.avif", "pictures/hopper.avif"),
                ("photos/rgb-29x100.heif", "pictures/rgb-29x100.heif"),
                ("photos/2024/june/orientation-6.jpg", "pictures/orientation-6.jpg"),
                ("photos/2024/gradient.webp", "pictures/gradient.webp"),
                ("docs/document.pdf", "other/document.pdf"),
                ("broken/truncated.jpg", "pictures/truncated.jpg"),
                ("broken/scan.jpg", "other/document.pdf"),
            ]
            for (path, sample) in sources {
                let url = root.appendingPathComponent("in/" + path)
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try FileManager.default.copyItem(
                    at: TestPaths.samples.appendingPathComponent(sample), to: url)
            }
            var expected: [String: (error: String, reason: String?)?] = [:]
            for (path, _) in sources { expected[path] = .some(nil) }
            expected["docs/document.pdf"] = ("unsupported_media_type", nil)
            expected["broken/truncated.jpg"] = ("unreadable_picture", "truncated")
            expected["broken/scan.jpg"] = ("unsupported_media_type", nil)
            self.expected = expected
        }

        var input: String { root.path + "/in" }
        func output(_ name: String = "out") -> String { root.path + "/" + name }
    }

    private func lines(_ manifest: String) throws -> [[String: Any]] {
        try String(contentsOfFile: manifest, encoding: .utf8).split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    private func summary(_ stdout: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any])
    }

    @Test func everyFileGetsOneLineAndEveryPictureItsRenditions() async throws {
        let folder = try MixedFolder()
        defer { try? FileManager.default.removeItem(at: folder.root) }
        let run = try await VariantdProcess.run([
            "batch", "--bucket", Self.bucket, "--out", folder.output(), "--jobs", "2", "--json", folder.input,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let totals = try summary(run.stdout)
        #expect(totals["ok"] as? Int == 6)
        #expect(totals["unreadable"] as? Int == 1)
        #expect(totals["unsupported"] as? Int == 2)
        #expect(totals["skipped"] as? Int == 0)
        #expect(totals["errors"] as? Int == 0)

        let manifest = try lines(folder.output() + "/manifest.jsonl")
        #expect(manifest.count == folder.expected.count)
        #expect(Set(manifest.compactMap { $0["path"] as? String }) == Set(folder.expected.keys))
        let pipeline = try Pipeline()
        for line in manifest {
            let path = try #require(line["path"] as? String)
            let source = try Data(contentsOf: URL(fileURLWithPath: folder.input + "/" + path))
            #expect(line["checksumSha256"] as? String == SHA256.hex([UInt8](source)), "\(path)")
            #expect((line["declarationSha256"] as? String)?.count == 64)
            if let (error, reason) = try #require(folder.expected[path]) {
                #expect(line["error"] as? String == error, "\(path)")
                #expect(line["reason"] as? String == reason, "\(path)")
                if error == "unsupported_media_type" {
                    #expect((line["message"] as? String)?.hasSuffix("does not take application/pdf") == true)
                }
                continue
            }
            #expect(line["bucket"] as? String == "post-images")
            let renditions = try #require(line["renditions"] as? [String: [String: Any]], "\(path)")
            #expect(Set(renditions.keys) == ["thumb", "medium", "large"])
            for (name, rendition) in renditions {
                let key = try #require(rendition["key"] as? String)
                let bytes = try [UInt8](
                    Data(contentsOf: URL(fileURLWithPath: folder.output() + "/renditions/" + key)))
                #expect(bytes.count == rendition["size"] as? Int, "\(path) \(name)")
                var timings = StageTimings()
                let decoded = try pipeline.run(
                    RenditionOrder(ObjectRequest(bucket: "check", path: key), bucket: nil), bytes: bytes,
                    timings: &timings)
                #expect(decoded.width == rendition["width"] as? Int, "\(path) \(name)")
                #expect(decoded.height == rendition["height"] as? Int, "\(path) \(name)")
                #expect(decoded.contentType == rendition["contentType"] as? String, "\(path) \(name)")
            }
        }
        let leftovers = try FileManager.default.contentsOfDirectory(
            atPath: folder.output() + "/renditions/.tmp")
        #expect(leftovers.isEmpty)
    }

    /// `--report` links every rendition where `--renditions` put it, not to the `<out>/renditions` it
    /// replaced, which does not exist.
    @Test func theReportLinksTheRenditionStoreItWasGiven() async throws {
        let folder = try MixedFolder()
        defer { try? FileManager.default.removeItem(at: folder.root) }
        let run = try await VariantdProcess.run([
            "batch", "--bucket", Self.bucket, "--out", folder.output(), "--renditions",
            folder.output("store"), "--quiet", "--report", folder.input,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let page = try String(contentsOfFile: folder.output() + "/report.html", encoding: .utf8)
        let sources = page.components(separatedBy: #"<img src=""#).dropFirst()
            .map { String($0.prefix { $0 != "\"" }) }.filter { !$0.hasPrefix("data:") }
        #expect(sources.count >= 5)
        for source in sources {
            let file = try #require(source.removingPercentEncoding)
            #expect(FileManager.default.fileExists(atPath: folder.output() + "/" + file), "\(source)")
        }
    }

    @Test func aResumeSkipsEverythingAndAChangedDeclarationRendersAgain() async throws {
        let folder = try MixedFolder()
        defer { try? FileManager.default.removeItem(at: folder.root) }
        let arguments = ["batch", "--bucket", Self.bucket, "--out", folder.output(), "--json", folder.input]
        let first = try await VariantdProcess.run(arguments)
        #expect(first.status == 0, "\(first.stderr)")
        let manifest = folder.output() + "/manifest.jsonl"
        let before = try String(contentsOfFile: manifest, encoding: .utf8)

        let again = try await VariantdProcess.run(arguments)
        #expect(again.status == 0, "\(again.stderr)")
        let totals = try summary(again.stdout)
        #expect(totals["skipped"] as? Int == folder.expected.count)
        #expect(totals["processed"] as? Int == 0)
        #expect(try String(contentsOfFile: manifest, encoding: .utf8) == before)

        let strict = try await VariantdProcess.run(arguments + ["--strict"])
        #expect(strict.status == 1, "resumed unreadable files still count for --strict")

        let changed = folder.root.appendingPathComponent("changed.json")
        let text = try String(contentsOfFile: Self.bucket, encoding: .utf8)
        try text.replacingOccurrences(of: "\"quality\": 75", with: "\"quality\": 70")
            .write(to: changed, atomically: true, encoding: .utf8)
        let rerender = try await VariantdProcess.run([
            "batch", "--bucket", changed.path, "--out", folder.output(), "--json", folder.input,
        ])
        #expect(rerender.status == 0, "\(rerender.stderr)")
        #expect(try summary(rerender.stdout)["skipped"] as? Int == 0)
        #expect(try lines(manifest).count == 2 * folder.expected.count)
    }

    @Test func strictExitsOneWhenAFileIsUnreadable() async throws {
        let folder = try MixedFolder()
        defer { try? FileManager.default.removeItem(at: folder.root) }
        let run = try await VariantdProcess.run([
            "batch", "--bucket", Self.bucket, "--out", folder.output(), "--strict", "--quiet", folder.input,
        ])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stdout.isEmpty)
        #expect(try lines(folder.output() + "/manifest.jsonl").count == folder.expected.count)
    }

    @Test func strictStillExitsOneWhenAnEarlierRunRecordedAFailure() async throws {
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: TestPaths.samples.appendingPathComponent("pictures/gradient.jpg"),
            to: input.appendingPathComponent("gradient.jpg"))
        let declaration = folder.appendingPathComponent("tiny.json")
        try #"{"name": "tiny", "fileSizeLimit": 100}"#.write(
            to: declaration, atomically: true, encoding: .utf8)
        let arguments = [
            "batch", "--bucket", declaration.path, "--out", folder.path + "/out", "--strict", "--json",
            input.path,
        ]
        let first = try await VariantdProcess.run(arguments)
        #expect(first.status == 1, "a 413 is a failed file: \(first.stderr)")
        let again = try await VariantdProcess.run(arguments)
        #expect(try summary(again.stdout)["skipped"] as? Int == 1)
        #expect(again.status == 1, "the 413 recorded by the first run still fails --strict")
    }

    /// A file over the 256 MiB every read refuses is readable all the same: its 413 line carries its
    /// checksum, so a re-run skips it instead of appending a line for it each time and calling its line
    /// "not a record".
    @Test func aFileOverTheReadLimitIsRecordedOnceWithItsChecksum() async throws {
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        // Sparse: 257 MiB of zeros that take no room on the disk.
        let url = input.appendingPathComponent("large.jpg")
        #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
        let large = try FileHandle(forWritingTo: url)
        try large.truncate(atOffset: UInt64(Limits.default.maxInputBytes) + (1 << 20))
        try large.close()
        let arguments = [
            "batch", "--bucket", Self.bucket, "--out", folder.path + "/out", "--json", input.path,
        ]
        let first = try await VariantdProcess.run(arguments)
        #expect(first.status == 0, "\(first.stderr)")
        let again = try await VariantdProcess.run(arguments)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try summary(again.stdout)["skipped"] as? Int == 1)
        #expect(!again.stderr.contains("not records"), "\(again.stderr)")
        let manifest = try lines(folder.path + "/out/manifest.jsonl")
        #expect(manifest.count == 1)
        #expect(manifest.first?["error"] as? String == "payload_too_large")
        #expect((manifest.first?["checksumSha256"] as? String)?.count == 64)
    }

    /// MB/s is the pace of reading sources: a file refused before it is read for decoding (over the read
    /// limit; hashed for its manifest line only) adds none of its bytes, which would have made a folder with
    /// one large video look hundreds of MB/s fast.
    @Test func onlyTheBytesOfFilesReadCount() async throws {
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        let picture = TestPaths.samples.appendingPathComponent("pictures/gradient.jpg")
        try FileManager.default.copyItem(at: picture, to: input.appendingPathComponent("gradient.jpg"))
        let url = input.appendingPathComponent("large.jpg")
        #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
        let large = try FileHandle(forWritingTo: url)
        try large.truncate(atOffset: UInt64(Limits.default.maxInputBytes) + (1 << 20))
        try large.close()
        let run = try await VariantdProcess.run([
            "batch", "--bucket", Self.bucket, "--out", folder.path + "/out", "--json", input.path,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let counted = try summary(run.stdout)
        #expect(counted["processed"] as? Int == 2)
        #expect(counted["bytes"] as? Int == (try Data(contentsOf: picture)).count)
    }

    @Test func theTableGoesToStdoutAndNoTerminalEscapesToALog() async throws {
        let folder = try MixedFolder()
        defer { try? FileManager.default.removeItem(at: folder.root) }
        let run = try await VariantdProcess.run([
            "batch", "--bucket", Self.bucket, "--out", folder.output(), folder.input,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("Finished after "))
        #expect(run.stdout.contains("  unreadable   1\n"))
        #expect(run.stdout.contains("  unsupported  2\n"))
        #expect(!run.stderr.contains("\u{1B}["), "no terminal escapes when stderr is not a terminal")
    }

    @Test func usageErrorsExit64WithTheUsageLine() async throws {
        let folder = try MixedFolder()
        defer { try? FileManager.default.removeItem(at: folder.root) }
        let invalid = TestPaths.samples.appendingPathComponent("buckets/invalid/not-json.json").path
        let cases: [[String]] = [
            ["batch", "--bucket", Self.bucket, "--out", folder.output(), folder.root.path + "/missing"],
            ["batch", "--bucket", Self.bucket, "--out", folder.output(), folder.input + "/gradient.jpg"],
            ["batch", "--bucket", invalid, "--out", folder.output(), folder.input],
            ["batch", "--bucket", folder.root.path + "/none.json", "--out", folder.output(), folder.input],
            ["batch", "--out", folder.output(), folder.input],
            ["batch", "--bucket", Self.bucket, folder.input],
            ["batch", "--bucket", Self.bucket, "--out", folder.output()],
            ["batch", "--bucket", Self.bucket, "--out", folder.output(), "--jobs", "0", folder.input],
            ["batch", "--bucket", Self.bucket, "--out", folder.output(), "--frobnicate", folder.input],
        ]
        for arguments in cases {
            let run = try await VariantdProcess.run(arguments)
            #expect(run.status == 64, "\(arguments)")
            #expect(run.stderr.contains("Usage: variantd batch --bucket <file> --out <dir>"), "\(arguments)")
            #expect(run.stdout.isEmpty)
        }
        #expect(
            !FileManager.default.fileExists(atPath: folder.output()), "nothing is written on a usage error")
    }

    /// `--out` naming the walked folder itself (not a folder inside it, which is left out of the walk) would
    /// have the run process its own manifest and quarantine, the manifest changing under every run: refused.
    @Test func anOutputThatIsTheWalkedFolderIsAUsageError() async throws {
        let folder = try MixedFolder()
        defer { try? FileManager.default.removeItem(at: folder.root) }
        try FileManager.default.createSymbolicLink(
            atPath: folder.root.path + "/link", withDestinationPath: folder.input)
        for output in [folder.input, folder.input + "/.", folder.root.path + "/link"] {
            let run = try await VariantdProcess.run([
                "batch", "--bucket", Self.bucket, "--out", output, "--json", folder.input,
            ])
            #expect(run.status == 64, "\(output): \(run.stdout)")
            #expect(run.stderr.contains("is the folder walked"), "\(output): \(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder.input + "/manifest.jsonl"), "\(output)")
        }
    }

    /// A quarantine file inside the walked folder, like an output folder inside it, is left out of the walk
    /// with the companions SQLite keeps beside it: otherwise every run finds it changed and processes it as
    /// an object again, and a resume never comes to rest.
    @Test func aQuarantineInsideTheWalkedFolderIsLeftOutOfTheWalk() async throws {
        let folder = try MixedFolder()
        defer { try? FileManager.default.removeItem(at: folder.root) }
        let arguments = [
            "batch", "--bucket", Self.bucket, "--out", folder.output(), "--quarantine",
            folder.input + "/docs/quarantine.sqlite3", "--json", folder.input,
        ]
        for _ in 0..<2 {
            let run = try await VariantdProcess.run(arguments)
            #expect(run.status == 0, "\(run.stderr)")
        }
        let paths = try lines(folder.output() + "/manifest.jsonl").compactMap { $0["path"] as? String }
        #expect(paths.sorted() == folder.expected.keys.sorted())
        let again = try await VariantdProcess.run(arguments)
        #expect(try summary(again.stdout)["processed"] as? Int == 0)
    }

    @Test func anOutputThatCannotBeWrittenExits74() async throws {
        let folder = try MixedFolder()
        defer { try? FileManager.default.removeItem(at: folder.root) }
        let run = try await VariantdProcess.run([
            "batch", "--bucket", Self.bucket, "--out", folder.input + "/gradient.jpg/out", folder.input,
        ])
        #expect(run.status == 74)
        #expect(run.stderr.contains("cannot be written"))
    }

    /// The folder `scripts/run-samples.sh` walks holds pictures only, so a newcomer's first summary is the
    /// pictures' own: each decoded, or unreadable for a picture's reason; nothing unsupported, no error.
    @Test func theSamplesRunIsPicturesOnly() async throws {
        let script = try String(
            contentsOf: TestPaths.packageRoot.appendingPathComponent("scripts/run-samples.sh"),
            encoding: .utf8)
        #expect(script.contains(#"--out "$out" Samples/pictures"#), "\(script)")
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try await VariantdProcess.run([
            "batch", "--bucket", Self.bucket, "--out", folder.path, "--quiet", "--json",
            TestPaths.samples.appendingPathComponent("pictures").path,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let summary = try #require(
            try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(summary["unsupported"] as? Int == 0 && summary["errors"] as? Int == 0, "\(summary)")
        #expect(summary["ok"] as? Int == 19 && summary["unreadable"] as? Int == 2, "\(summary)")
    }

    @Test func helpIsOnStdout() async throws {
        for arguments in [["help", "batch"], ["batch", "--help"]] {
            let run = try await VariantdProcess.run(arguments)
            #expect(run.status == 0)
            #expect(run.stdout.contains("USAGE: variantd batch --bucket <file> --out <dir>"))
            #expect(run.stdout.contains("EXIT STATUS:"))
            #expect(run.stderr.isEmpty)
        }
        #expect(Program.tool.overview.contains("  batch "))
    }

    /// Many distinct JPEGs (each copy gets its own trailing bytes, so none reuses another's renditions),
    /// interrupted after the first manifest line and then resumed.
    @Test func anInterruptedRunStopsCleanlyAndResumes() async throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let picture = try Data(contentsOf: TestPaths.samples.appendingPathComponent("pictures/gradient.jpg"))
        let count = 120
        for index in 0..<count {
            let directory = root.appendingPathComponent("in/d\(index % 12)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try (picture + Data("copy \(index)".utf8)).write(
                to: directory.appendingPathComponent("p\(index).jpg"))
        }
        let output = root.path + "/out"
        let manifest = output + "/manifest.jsonl"
        let arguments = [
            "batch", "--bucket", Self.bucket, "--out", output, "--jobs", "1", "--json", root.path + "/in",
        ]

        let running = try VariantdProcess(arguments)
        running.signal(SIGINT, onceFileHasContent: manifest, within: .seconds(120))
        let interrupted = try await running.finish(within: .seconds(120))
        #expect(interrupted.status == 130, "\(interrupted.stderr)")
        #expect(interrupted.stderr.contains("Ctrl-C: finishing the files in flight"))
        let firstLines = try lines(manifest)
        #expect(!firstLines.isEmpty && firstLines.count < count)
        #expect(try summary(interrupted.stdout)["interrupted"] as? Bool == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: output + "/renditions/.tmp").isEmpty)

        let resumed = try await VariantdProcess.run(arguments)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(try summary(resumed.stdout)["skipped"] as? Int == firstLines.count)
        let all = try lines(manifest)
        #expect(all.count == count)
        #expect(Set(all.compactMap { $0["path"] as? String }).count == count)
        #expect(all.allSatisfy { $0["bucket"] as? String == "post-images" })
        #expect(try FileManager.default.contentsOfDirectory(atPath: output + "/renditions/.tmp").isEmpty)
    }
}
