import Foundation
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdCore

#if canImport(Glibc)
    import Glibc
#endif

/// The S3 client against a real SeaweedFS that checks every signature (see `SeaweedServer`).
@Suite(.seaweedServer, .seaweedInstalled)
struct S3ClientTests {
    private func server() throws -> SeaweedServer { try #require(SeaweedServer.current) }

    @Test func storesAndReadsBackAnObject() throws {
        let server = try server()
        let client = try server.client()
        let bucket = try server.freshBucket()
        let bytes = (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try client.put(
            bucket: bucket, key: "renditions/ab/x.webp", bytes: bytes, contentType: "image/webp",
            cacheControl: S3Client.immutable)
        #expect(try client.size(bucket: bucket, key: "renditions/ab/x.webp") == 5000)
        #expect(try client.read(bucket: bucket, key: "renditions/ab/x.webp", maxBytes: 5000) == bytes)
    }

    @Test func aMissingObjectIsNotFound() throws {
        let server = try server()
        let bucket = try server.freshBucket()
        let error = try #require(throws: S3Error.self) {
            try server.client().read(bucket: bucket, key: "nothing/here.jpg", maxBytes: 1 << 20)
        }
        #expect(error.kind == .notFound)
        #expect(error.variantsError.code == .notFound)
        #expect(error.description.contains("s3://\(bucket)/nothing/here.jpg"))
    }

    @Test func aWrongSecretIsATypedErrorNamingTheLocation() throws {
        let server = try server()
        let bucket = try server.freshBucket()
        let secret = "not-the-secret-key-at-all-0123456789"
        let client = try server.client(secret: secret)
        let error = try #require(throws: S3Error.self) {
            try client.put(bucket: bucket, key: "a.jpg", bytes: [1, 2, 3], contentType: "image/jpeg")
        }
        #expect(error.kind == .denied)
        #expect(error.description.contains("s3://\(bucket)/a.jpg"))
        #expect(error.description.contains("SignatureDoesNotMatch"))
        #expect(!error.description.contains(secret) && !error.description.contains(SeaweedServer.secretKey))
        #expect(error.variantsError.code == .internalError)
        let headError = try #require(throws: S3Error.self) { try client.size(bucket: bucket, key: "a.jpg") }
        #expect(headError.kind == .denied)
    }

    @Test func keysWithSpacesPlusSignsAndUnicodeRoundTrip() throws {
        let server = try server()
        let client = try server.client()
        let bucket = try server.freshBucket()
        let keys = [
            "with space/a b.jpg", "plus+sign/c+d.png", "unicode/été 名前.webp", "odd/percent%20tilde~(1)&=.gif",
        ]
        for (index, key) in keys.enumerated() {
            try client.put(bucket: bucket, key: key, bytes: [UInt8(index), 9, 9], contentType: "image/jpeg")
        }
        var listed: [S3Object] = []
        try client.list(bucket: bucket, prefix: "") { listed += $0 }
        #expect(Set(listed.map(\.key)) == Set(keys))
        for (index, key) in keys.enumerated() {
            #expect(try client.read(bucket: bucket, key: key, maxBytes: 3) == [UInt8(index), 9, 9])
        }
    }

    @Test func listsEveryPage() throws {
        let server = try server()
        let client = try server.client()
        let bucket = try server.freshBucket()
        let keys = (0..<7).map { "in/\($0).jpg" } + ["inside.jpg", "out/0.jpg"]
        for key in keys { try client.put(bucket: bucket, key: key, bytes: [1], contentType: "image/jpeg") }
        var pages: [[S3Object]] = []
        try client.list(bucket: bucket, prefix: "in/", pageSize: 2) { pages.append($0) }
        #expect(pages.count >= 4)
        #expect(pages.flatMap { $0 }.map(\.key) == (0..<7).map { "in/\($0).jpg" })
    }

    @Test func a30MegabyteObjectStreamsBothWays() throws {
        let server = try server()
        let client = try server.client()
        let bucket = try server.freshBucket()
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let size = 30_000_000
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 ^ ($0 >> 11)) }
        let source = folder.appendingPathComponent("big.bin").path
        #expect(FileManager.default.createFile(atPath: source, contents: Data(bytes)))
        try client.put(
            bucket: bucket, key: "big/30mb.bin", file: source, contentType: "application/octet-stream")
        let copy = folder.appendingPathComponent("copy.bin").path
        let fetched = try client.fetch(
            bucket: bucket, key: "big/30mb.bin", maxBytes: size, spillingPast: 1 << 20, to: copy)
        guard case .file(let count) = fetched else {
            Issue.record("a 30 MB body stayed in memory past a 1 MiB threshold")
            return
        }
        #expect(count == size)
        #expect(FileManager.default.contents(atPath: copy) == Data(bytes))
        #expect(try client.read(bucket: bucket, key: "big/30mb.bin", maxBytes: size) == bytes)
        let limited = try #require(throws: S3Error.self) {
            try client.read(bucket: bucket, key: "big/30mb.bin", maxBytes: size - 1)
        }
        #expect(limited.kind == .tooLarge)
    }

    /// 300 MB is over the 256 MiB input limit: the GET's declared length refuses it before any of its body
    /// is kept (the message quotes that length; a body cut short at the limit would say the object grew).
    @Test func a300MegabyteObjectIsRefusedFromItsSize() throws {
        let server = try server()
        let client = try server.client()
        let bucket = try server.freshBucket()
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent("huge.bin").path
        #expect(FileManager.default.createFile(atPath: source, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: source))
        try handle.truncate(atOffset: 300_000_000)
        try handle.close()
        try client.put(bucket: bucket, key: "huge.jpg", file: source, contentType: "image/jpeg")
        let limit = Limits().maxInputBytes
        let error = try #require(throws: S3Error.self) {
            try client.read(bucket: bucket, key: "huge.jpg", maxBytes: limit)
        }
        #expect(error.kind == .tooLarge)
        #expect(error.message.contains("is 300000000 bytes"))
        #expect(error.variantsError.code == .payloadTooLarge)
    }
}

/// The store going away and coming back: typed as unavailable (`store_unavailable`) while it is gone.
@Suite(.seaweedServer, .seaweedInstalled)
struct S3OutageTests {
    @Test func aStoppedServerIsUnavailableUntilItReturns() throws {
        let server = try #require(SeaweedServer.current)
        let client = try server.client()
        let bucket = try server.freshBucket()
        try client.put(bucket: bucket, key: "k.jpg", bytes: [7], contentType: "image/jpeg")
        server.kill()
        let error = try #require(throws: S3Error.self) {
            try client.read(bucket: bucket, key: "k.jpg", maxBytes: 1)
        }
        #expect(error.kind == .unavailable)
        #expect(error.variantsError.code == .storeUnavailable)
        try server.start()
        #expect(try client.read(bucket: bucket, key: "k.jpg", maxBytes: 1) == [7])
    }
}

extension S3ClientTests {
    @Test func walksAPrefixPageByPageSkippingMarkersAndExcludedKeys() throws {
        let server = try server()
        let client = try server.client()
        let bucket = try server.freshBucket()
        let keys = [
            "up/a.jpg", "up/b/c.png", "up/folder/", "up/out/renditions/x.webp", "upper.jpg", "other/d.jpg",
        ]
        for key in keys {
            try client.put(bucket: bucket, key: key, bytes: [1, 2], contentType: "image/jpeg")
        }
        let walk = BucketWalk(
            client: client, location: try S3Location("s3://\(bucket)/up"), excluded: ["up/out/"],
            unlistable: { _ in Issue.record("the prefix could not be listed") })
        #expect(
            Array(walk) == [.init(relativePath: "a.jpg", size: 2), .init(relativePath: "b/c.png", size: 2)])
    }
}

extension S3ClientTests {
    /// S3 keys are bytes: a key whose first character after the prefix is a combining mark (which joins the
    /// `/` before it into one Swift `Character`) keeps that mark in its relative path, so the walked object is
    /// the one read; an excluded prefix is matched byte for byte, not by canonical equivalence.
    @Test func walkedPathsAreTheKeysBytesAfterThePrefix() throws {
        let server = try server()
        let client = try server.client()
        let bucket = try server.freshBucket()
        let objects: [String: [UInt8]] = [
            "up/\u{301}accent.jpg": [1], "up/accent.jpg": [2], "up/e\u{301}/kept.jpg": [3],
            "up/\u{E9}/out.jpg": [4],
        ]
        for (key, bytes) in objects {
            try client.put(bucket: bucket, key: key, bytes: bytes, contentType: "image/jpeg")
        }
        let location = try S3Location("s3://\(bucket)/up")
        let walk = BucketWalk(
            client: client, location: location, excluded: ["up/\u{E9}/"],
            unlistable: { _ in Issue.record("the prefix could not be listed") })
        let paths = Array(walk).map(\.relativePath)
        #expect(
            Set(paths.map { Array($0.utf8) })
                == Set(["\u{301}accent.jpg", "accent.jpg", "e\u{301}/kept.jpg"].map { Array($0.utf8) }))
        let store = S3ObjectStore(client: client, location: location)
        for path in paths {
            #expect(
                try store.read(path, maxBytes: 1) == objects["up/" + path],
                "\(path.unicodeScalars.map(\.value))")
        }
    }
}

extension S3ClientTests {
    /// XML 1.0 cannot carry a control character: listed as text, such a key comes back as another key (a
    /// store writes U+FFFD), which no GET finds. Keys are listed URL-encoded, and read back exactly.
    @Test func keysXMLCannotCarryAreListedExactly() throws {
        let server = try server()
        let client = try server.client()
        let bucket = try server.freshBucket()
        let keys = ["u/bell\u{7}.jpg", "u/esc\u{1B}[0m.png", "u/a b+c%2F&amp;.jpg", "u/été/名.webp"]
        for key in keys { try client.put(bucket: bucket, key: key, bytes: [1], contentType: "image/jpeg") }
        var listed: [S3Object] = []
        try client.list(bucket: bucket, prefix: "u/", pageSize: 2) { listed += $0 }
        #expect(Set(listed.map { Array($0.key.utf8) }) == Set(keys.map { Array($0.utf8) }))
        for object in listed {
            #expect(try client.read(bucket: bucket, key: object.key, maxBytes: 1) == [1], "\(object.key)")
        }
    }
}

/// Answers SeaweedFS cannot be made to give, from a loopback HTTP server of the test's own.
@Suite(
    .enabled(
        if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "needs /usr/bin/python3"))
struct S3ClientRetryTests {
    /// Answers each request with the next of the comma-separated `STATUS[:CODE]` in `argv[2]` (the last one
    /// for ever after), an S3 error document carrying CODE, and appends a line per request to `argv[1]`.
    private static let store = """
        import http.server, sys
        log, answers = sys.argv[1], sys.argv[2].split(',')
        seen = [0]
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                status, _, code = answers[min(seen[0], len(answers) - 1)].partition(':')
                seen[0] += 1
                with open(log, 'a') as out:
                    out.write(self.path + '\\n')
                body = b'picture'
                if code:
                    body = ('<?xml version="1.0" encoding="UTF-8"?><Error><Code>' + code
                            + '</Code><Message>try again</Message></Error>').encode()
                self.send_response(int(status))
                self.send_header('Content-Length', str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            def log_message(self, *args):
                pass
        server = http.server.HTTPServer(('127.0.0.1', 0), Handler)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """

    /// Reads `a.jpg` from a store giving `answers`, and how many requests it took.
    private func read(answering answers: String) throws -> (result: Result<[UInt8], S3Error>, requests: Int) {
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = folder.appendingPathComponent("requests.log").path
        let server = try ScriptedServer(Self.store, arguments: [log, answers])
        defer { server.stop() }
        let client = S3Client(try server.s3Configuration())
        let result = Result { () throws(S3Error) in
            try client.read(bucket: "bkt", key: "a.jpg", maxBytes: 1 << 20)
        }
        let requests = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").count
        return (result, requests)
    }

    /// S3 answers `400 RequestTimeout` when a connection went quiet mid-request, and the AWS SDKs' standard
    /// retry mode retries it and the other transient and throttling codes: tried again like a 5xx.
    @Test(arguments: ["RequestTimeout", "RequestTimeoutException", "PriorRequestNotComplete", "Throttling"])
    func aTransientCodeIsRetried(code: String) throws {
        let (result, requests) = try read(answering: "400:\(code),400:\(code),200")
        #expect(try result.get() == Array("picture".utf8))
        #expect(requests == 3)
    }

    /// After the retries it is the same outage as a 5xx: `store_unavailable`, which `work` waits out.
    @Test func aRequestTimeoutThatPersistsIsAnOutage() throws {
        let (result, requests) = try read(answering: "400:RequestTimeout")
        let error = try #require(throws: S3Error.self) { try result.get() }
        #expect(error.kind == .unavailable, "\(error)")
        #expect(error.variantsError.code == .storeUnavailable)
        #expect(error.description.contains("RequestTimeout"))
        #expect(requests == 4)
    }

    /// A store that fails everything for long: the process's retry budget bounds the tries it sends. With
    /// room for two retries, the first read tries three times and the next ones once each, each an outage
    /// (`store_unavailable`) at once; answered requests earn the budget back.
    @Test func aSpentRetryBudgetStopsTheRetries() throws {
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = folder.appendingPathComponent("requests.log").path
        let server = try ScriptedServer(Self.store, arguments: [log, "503:SlowDown"])
        defer { server.stop() }
        var configuration = try server.s3Configuration()
        let budget = RetryBudget(capacity: 10, retryCost: 5)
        configuration.retryBudget = budget
        let client = S3Client(configuration)
        func requests() throws -> Int {
            try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").count
        }
        var counts: [Int] = []
        for _ in 1...3 {
            let error = try #require(throws: S3Error.self) {
                try client.read(bucket: "bkt", key: "a.jpg", maxBytes: 1 << 20)
            }
            #expect(error.variantsError.code == .storeUnavailable)
            counts.append(try requests())
        }
        #expect(counts == [3, 4, 5], "3 tries, then 1 each: not 4 each")
        #expect(budget.refusedRetries == 3)
        for _ in 1...5 { budget.earn() }
        #expect(budget.spendRetry(), "answered requests earn a retry back")
        budget.earn(retries: 2)
        #expect(
            budget.spendRetry() && budget.spendRetry(), "a request answered after retries earns them back")
        #expect(!budget.spendRetry())
    }

    /// Another 400 is a request the store refuses however often it is sent: final at once.
    @Test func anotherBadRequestIsFinal() throws {
        let (result, requests) = try read(answering: "400:InvalidArgument,200")
        let error = try #require(throws: S3Error.self) { try result.get() }
        #expect(error.kind == .rejected, "\(error)")
        #expect(requests == 1)
    }
}

/// A store that cuts a `PUT` mid-body or stalls after the headers, from a loopback server of the test's
/// own: each is a network failure, retried like a 5xx, and the stall is cut by the low-speed limit
/// (`stalled` seconds under 1 KiB/s; 30 s by default, 1 s here) rather than waited out.
@Suite(
    .enabled(
        if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "needs /usr/bin/python3"))
struct S3FaultTests {
    /// Answers each request with the next of the comma-separated actions in `argv[2]` (the last one for ever
    /// after): `cut` reads half the body and closes the connection without an answer, `stall` sends the
    /// headers of a 100 000-byte body and 10 bytes of it, then nothing; a number is that status, empty.
    private static let store = """
        import http.server, socket, sys, time
        log, actions = sys.argv[1], sys.argv[2].split(',')
        seen = [0]
        class Handler(http.server.BaseHTTPRequestHandler):
            # HTTP/1.1 answers curl's `Expect: 100-continue` before a large body, as S3 does.
            protocol_version = 'HTTP/1.1'
            def handle_one_request_action(self):
                action = actions[min(seen[0], len(actions) - 1)]
                seen[0] += 1
                with open(log, 'a') as out:
                    out.write(self.command + ' ' + action + '\\n')
                return action
            def do_PUT(self):
                action = self.handle_one_request_action()
                length = int(self.headers.get('Content-Length', '0'))
                if action == 'cut':
                    self.rfile.read(length // 2)
                    self.connection.shutdown(socket.SHUT_RDWR)
                    self.close_connection = True
                    return
                self.rfile.read(length)
                self.send_response(int(action))
                self.send_header('Content-Length', '0')
                self.end_headers()
            def do_GET(self):
                action = self.handle_one_request_action()
                if action == 'stall':
                    self.send_response(200)
                    self.send_header('Content-Length', '100000')
                    self.end_headers()
                    self.wfile.write(b'0123456789')
                    self.wfile.flush()
                    time.sleep(120)
                    return
                self.send_response(int(action))
                self.send_header('Content-Length', '0')
                self.end_headers()
            def log_message(self, *args):
                pass
        server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), Handler)
        server.daemon_threads = True
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """

    /// A client of a store acting out `actions`, with the low-speed limit at 1 s, and the request log.
    private func client(_ actions: String, in folder: URL) throws -> (S3Client, ScriptedServer, String) {
        let log = folder.appendingPathComponent("requests.log").path
        let server = try ScriptedServer(Self.store, arguments: [log, actions])
        var configuration = try server.s3Configuration()
        configuration.timeouts = CurlTransfer.Timeouts(connect: 2, stalled: 1)
        return (S3Client(configuration), server, log)
    }

    private func requests(_ log: String) throws -> [String] {
        try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    @Test func aPutCutMidBodyIsSentAgainWhole() throws {
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (client, server, log) = try client("cut,cut,200", in: folder)
        defer { server.stop() }
        let bytes = [UInt8](repeating: 7, count: 256 << 10)
        try client.put(bucket: "bkt", key: "r.webp", bytes: bytes, contentType: "image/webp")
        #expect(try requests(log) == ["PUT cut", "PUT cut", "PUT 200"])
    }

    @Test func aPutCutEveryTimeIsAnOutage() throws {
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (client, server, log) = try client("cut", in: folder)
        defer { server.stop() }
        let error = try #require(throws: S3Error.self) {
            try client.put(
                bucket: "bkt", key: "r.webp", bytes: [UInt8](repeating: 7, count: 256 << 10),
                contentType: "image/webp")
        }
        #expect(error.variantsError.code == .storeUnavailable, "\(error)")
        #expect(try requests(log).count == 4)
    }

    /// A store that sends the headers and then nothing: each try is cut after the low-speed limit, not held
    /// for ever, and the read ends as an outage after its tries.
    @Test func aStoreThatStallsAfterTheHeadersIsCutAndAnOutage() throws {
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (client, server, log) = try client("stall", in: folder)
        defer { server.stop() }
        let started = ContinuousClock.now
        let error = try #require(throws: S3Error.self) {
            try client.read(bucket: "bkt", key: "a.jpg", maxBytes: 1 << 20)
        }
        #expect(error.variantsError.code == .storeUnavailable, "\(error)")
        #expect(try requests(log) == Array(repeating: "GET stall", count: 4))
        #expect(started.duration(to: .now) < .seconds(100), "cut, not waited out")
    }
}
