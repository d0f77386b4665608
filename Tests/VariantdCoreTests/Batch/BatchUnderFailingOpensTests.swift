import Foundation
import Testing
import VariantdTestSupport
import Variants

/// `variantd batch` under libfiu (Debian's `fiu-utils`, through `FileFaults`), which fails one `open` of a
/// file in ten with `EIO`, `EMFILE` or `ENOSPC` — reading sources, writing renditions, the manifest, the
/// quarantine: a run that meets the faults ends with whole manifest lines and typed errors (503, 507), and
/// the run after them, without faults, leaves the manifest and the renditions exactly as a run that never
/// met one.
@Suite(.enabled(if: FileFaults.isAvailable, "needs fiu-utils (libfiu) and a C compiler"))
struct BatchUnderFailingOpensTests {
    /// Codes a failed line may carry: the sample that is cut short, and what a failed open becomes.
    private static let typedCodes: Set<String> = [
        "unreadable_picture", "internal_error", "store_unavailable", "insufficient_storage", "transform_busy",
    ]

    private struct Run {
        let folder: URL
        var out: URL { folder.appendingPathComponent("out") }

        /// Runs the batch over the sample pictures, under `launcher` when given.
        func batch(launcher: [String] = []) async throws -> Int32 {
            try await VariantdProcess.run(
                [
                    "batch", "--bucket", folder.appendingPathComponent("pics.json").path, "--out", out.path,
                    "--quiet", TestPaths.samples.appendingPathComponent("pictures").path,
                ], launcher: launcher
            ).status
        }

        /// Every manifest line read as JSON (none before the manifest is made); a torn line fails the test.
        func lines() throws -> [[String: Any]] {
            let manifest = out.appendingPathComponent("manifest.jsonl")
            guard FileManager.default.fileExists(atPath: manifest.path) else { return [] }
            let text = try String(contentsOf: manifest, encoding: .utf8)
            return try text.split(separator: "\n").map { line in
                try #require(
                    try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "torn: \(line)"
                )
            }
        }

        /// The last line of each path whose source was read: what the manifest says of those bytes now. A line
        /// without the source's checksum is an attempt that never read it, which a resume does not count.
        func final() throws -> [String: String] {
            var last: [String: String] = [:]
            for line in try lines() where line["checksumSha256"] != nil {
                let path = try #require(line["path"] as? String)
                let renditions = (line["renditions"] as? [String: [String: Any]])?
                    .mapValues { $0["checksumSha256"] as? String ?? "" }
                last[path] = "\(line["error"] ?? "ok") \(line["checksumSha256"] ?? "") \(renditions ?? [:])"
            }
            return last
        }

        /// The rendition files, by key, with their bytes' SHA-256.
        func renditions() throws -> [String: String] {
            let root = out.appendingPathComponent("renditions")
            var found: [String: String] = [:]
            for case let key as String in FileManager.default.enumerator(atPath: root.path) ?? NSEnumerator()
            where key.split(separator: "/").count == 3 && !key.hasPrefix(".") {
                let bytes = try Data(contentsOf: root.appendingPathComponent(key))
                found[key] = SHA256.hex(Array(bytes))
            }
            return found
        }
    }

    private func run(named name: String) throws -> Run {
        let folder = try TestPaths.temporaryDirectory().appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let declaration =
            #"{"name": "pics", "variants": {"thumb": {"width": 40, "height": 40, "format": "webp"}}}"#
        try Data(declaration.utf8).write(to: folder.appendingPathComponent("pics.json"))
        return Run(folder: folder)
    }

    @Test func failedOpensLeaveWholeLinesAndTheNextRunCompletesEverything() async throws {
        let reference = try run(named: "reference")
        let faulty = try run(named: "faulty")
        defer {
            try? FileManager.default.removeItem(at: reference.folder.deletingLastPathComponent())
            try? FileManager.default.removeItem(at: faulty.folder.deletingLastPathComponent())
        }
        // The cut-short sample's 422 is final, so a run without faults exits 0 all the same.
        #expect(try await reference.batch() == 0)

        // A host's errors, not ENOENT (libfiu's own pick may be that, which is rightly final `not_found`).
        for errorNumber in [EIO, EMFILE, ENOSPC] {
            let fiu = try FileFaults(in: faulty.folder).launcher(
                enabling: "enable_random name=posix/io/oc/open,probability=0.1,failinfo=\(errorNumber)")
            let status = try await faulty.batch(launcher: fiu)
            // 64 when the declaration itself could not be read, 74 when the manifest could not be opened
            // (nothing begun either way); 75 when some objects are left to retry.
            #expect(
                [0, 64, 74, 75].contains(status), "a run meeting faults ends typed, never a crash: \(status)")
            for line in try faulty.lines() {
                guard let code = line["error"] as? String else { continue }
                #expect(Self.typedCodes.contains(code), "\(line)")
                #expect(line["statusCode"] is Int && line["message"] is String, "\(line)")
            }
        }

        #expect(try await faulty.batch() == 0)
        let (after, expected) = (try faulty.final(), try reference.final())
        #expect(after == expected, "\(after.filter { expected[$0.key] != $0.value })")
        #expect(try faulty.renditions() == reference.renditions())
    }
}
