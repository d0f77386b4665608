import Foundation
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdCore

#if canImport(Glibc)
    import Glibc
#endif

/// A source that cannot be listed in full: its cause, the status `batch` and `enqueue --walk` share for it,
/// and the manifest line that says where the listing stopped.
@Suite struct WalkProblemTests {
    @Test func aFolderEntryIsRefusedOnlyForLackOfPermission() {
        let refused = WalkProblem(folderEntry: "/in/locked", error: CocoaError(.fileReadNoPermission))
        #expect(refused.cause == .refused && refused.cause.exitStatus.rawValue == 77)
        #expect(refused.description.contains("permission denied") && refused.reached == nil)
        let unreadable = WalkProblem(folderEntry: "/in/x", error: CocoaError(.fileReadUnknown))
        #expect(unreadable.cause == .unreadable && unreadable.cause.exitStatus.rawValue == 66)
    }

    @Test func aListingBreaksOffForTheCauseOfItsError() throws {
        let location = try S3Location("s3://bkt/in")
        let cases: [(S3Error.Kind, WalkProblem.Cause, Int32)] = [
            (.denied, .refused, 77), (.unavailable, .transient, 75), (.invalidResponse, .unreadable, 66),
            (.rejected, .unreadable, 66),
        ]
        for (kind, cause, status) in cases {
            let problem = WalkProblem(
                listing: location, error: S3Error(kind, "s3://bkt", "HTTP 403"), listed: 0, stoppedAfter: nil)
            #expect(problem.cause == cause && problem.cause.exitStatus.rawValue == status, "\(kind)")
        }
        let later = WalkProblem(
            listing: location, error: S3Error(.unavailable, "s3://bkt", "HTTP 503"), listed: 1000,
            stoppedAfter: "a/b.jpg")
        #expect(
            later.description.hasPrefix("s3://bkt/in cannot be listed past 'a/b.jpg' (s3://bkt: HTTP 503)"))
        #expect(later.error.code == .storeUnavailable)
        // A run that met several reports the one running again will not get past.
        #expect(max(WalkProblem.Cause.transient, .refused, .unreadable) == .refused)
        #expect(max(WalkProblem.Cause.transient, .unreadable) == .unreadable)
    }

    /// Serves one listing page per `pages` (`in/0.txt`, `in/1.txt`, …, each one key and truncated), then
    /// answers the next page with `503 ServiceUnavailable` for ever; every object is `hello`. Appends each
    /// request's path to `argv[1]`.
    private static let store = """
        import http.server, sys, urllib.parse
        log, pages = sys.argv[1], int(sys.argv[2])
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                query = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query)
                with open(log, 'a') as out:
                    out.write(self.path + '\\n')
                status, body = 200, b'hello'
                if 'list-type' in query:
                    page = int(query.get('continuation-token', ['0'])[0])
                    if page >= pages:
                        status = 503
                        body = (b'<?xml version="1.0" encoding="UTF-8"?><Error>'
                                b'<Code>ServiceUnavailable</Code><Message>down</Message></Error>')
                    else:
                        body = ('<?xml version="1.0" encoding="UTF-8"?><ListBucketResult>'
                                '<EncodingType>url</EncodingType><Contents><Key>in/%d.txt</Key><Size>5</Size>'
                                '</Contents><IsTruncated>true</IsTruncated>'
                                '<NextContinuationToken>%d</NextContinuationToken></ListBucketResult>'
                                % (page, page + 1)).encode()
                self.send_response(status)
                self.send_header('Content-Length', str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            def log_message(self, *args):
                pass
        server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), Handler)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """

    private static let declaration = TestPaths.samples.appendingPathComponent("buckets/post-images.json").path

    /// The variables that point the binary at a scripted store.
    private static func environment(_ server: ScriptedServer) -> [String: String] {
        [
            "AWS_ACCESS_KEY_ID": "AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY": "a-secret",
            "AWS_ENDPOINT_URL_S3": "http://127.0.0.1:\(server.port)",
        ]
    }

    private static func lines(_ path: String) throws -> [[String: Any]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    /// Both commands through the binary, against a scripted store.
    @Suite(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "needs /usr/bin/python3"))
    struct AgainstAScriptedStore {
        /// A store that answers the second page with 503 until the retries run out: the run exits 75, and the
        /// manifest says the listing stopped after `0.txt`. A re-run resumes (the object is skipped, the listing
        /// line is no record to warn of) and stops at the same place.
        @Test
        func aListingThatBreaksOffOnAnOutageExitsTempFailAndSaysWhere() async throws {
            let folder = try TestPaths.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: folder) }
            let server = try ScriptedServer(
                WalkProblemTests.store, arguments: [folder.path + "/requests.log", "1"])
            defer { server.stop() }
            let arguments = [
                "batch", "--bucket", WalkProblemTests.declaration, "--out", folder.path + "/out", "--quiet",
                "--json",
                "--report",
                "-j", "1", "s3://bkt/in",
            ]
            let first = try await VariantdProcess.run(
                arguments, environment: WalkProblemTests.environment(server))
            #expect(first.status == 75, "\(first.stderr)")
            #expect(first.stderr.contains("s3://bkt/in cannot be listed past '0.txt'"), "\(first.stderr)")
            let summary = try #require(
                try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: Any])
            #expect(summary["errors"] as? Int == 1 && summary["unsupported"] as? Int == 1)

            let manifest = folder.path + "/out/manifest.jsonl"
            let lines = try WalkProblemTests.lines(manifest)
            let listing = try #require(lines.first { $0["listing"] != nil })
            #expect(listing["listing"] as? String == "s3://bkt/in")
            #expect(listing["listed"] as? Int == 1 && listing["stoppedAfter"] as? String == "0.txt")
            #expect(
                listing["error"] as? String == "store_unavailable" && listing["statusCode"] as? Int == 503)
            #expect((listing["message"] as? String)?.contains("ServiceUnavailable") == true)
            #expect(listing["path"] == nil && listing["declarationSha256"] is String)
            let report = try String(contentsOfFile: folder.path + "/out/report.html", encoding: .utf8)
            #expect(!report.contains("not records"))

            let again = try await VariantdProcess.run(
                arguments, environment: WalkProblemTests.environment(server))
            #expect(again.status == 75, "\(again.stderr)")
            #expect(!again.stderr.contains("not records"), "\(again.stderr)")
            let resumed = try #require(
                try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
            #expect(resumed["skipped"] as? Int == 1 && resumed["processed"] as? Int == 0)
            #expect(try WalkProblemTests.lines(manifest).filter { $0["listing"] != nil }.count == 2)
        }

        /// `enqueue --walk` over the same store, failing from its first page: every try used (four), then 75.
        @Test
        func enqueueWalkExitsTempFailWhenTheListingBreaksOff() async throws {
            let folder = try TestPaths.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: folder) }
            let log = folder.path + "/requests.log"
            let server = try ScriptedServer(WalkProblemTests.store, arguments: [log, "0"])
            defer { server.stop() }
            let run = try await VariantdProcess.run(
                [
                    "enqueue", "--queue", "sqlite:" + folder.path + "/q.sqlite3", "--bucket", "walked",
                    "--walk",
                    "s3://bkt/in",
                ], environment: WalkProblemTests.environment(server))
            #expect(run.status == 75, "\(run.stderr)")
            #expect(run.stderr.contains("s3://bkt/in cannot be listed at all"), "\(run.stderr)")
            let summary = try WireJSON.decode(BackfillSummary.self, from: Array(run.stdout.utf8))
            #expect(summary.unreadable == 1 && summary.listed == 0 && summary.error == nil)
            let requests = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
            #expect(requests.count == 4 && requests.allSatisfy { $0.contains("list-type=2") })
        }
    }

    /// A directory this user may not read is a refusal for both commands (77), the rest still processed. No
    /// permission stops root, so the binary runs as `nobody`, dropped to through `setpriv`.
    @Test(
        .enabled(
            if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
            "needs root and setpriv, to run the binary as another user"))
    func aDirectoryThisUserMayNotReadIsARefusal() async throws {
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let nobody: uid_t = 65534
        #expect(chown(folder.path, nobody, gid_t(nobody)) == 0)
        let store = folder.appendingPathComponent("store")
        try FileManager.default.createDirectory(
            at: store.appendingPathComponent("locked"), withIntermediateDirectories: true)
        try Data("hello".utf8).write(to: store.appendingPathComponent("a.txt"))
        try Data("hello".utf8).write(to: store.appendingPathComponent("locked/b.txt"))
        #expect(chmod(store.path + "/locked", 0) == 0)
        let launcher = ["/usr/bin/setpriv", "--reuid=\(nobody)", "--regid=\(nobody)", "--clear-groups"]

        let enqueued = try await VariantdProcess.run(
            [
                "enqueue", "--queue", "sqlite:" + folder.path + "/q.sqlite3", "--bucket", "walked", "--walk",
                store.path,
            ],
            launcher: launcher)
        #expect(enqueued.status == 77, "\(enqueued.stderr)")
        #expect(enqueued.stderr.contains("\(store.path)/locked cannot be read (permission denied)"))
        let summary = try WireJSON.decode(BackfillSummary.self, from: Array(enqueued.stdout.utf8))
        #expect(summary.added == 1 && summary.unreadable == 1)

        let batch = try await VariantdProcess.run(
            [
                "batch", "--bucket", Self.declaration, "--out", folder.path + "/out", "--quiet", "-j", "1",
                store.path,
            ],
            launcher: launcher)
        #expect(batch.status == 77, "\(batch.stderr)")
        let lines = try Self.lines(folder.path + "/out/manifest.jsonl")
        #expect(lines.compactMap { $0["path"] as? String } == ["a.txt"])
        #expect(lines.compactMap { $0["listing"] as? String } == [store.path + "/locked"])
    }
}
