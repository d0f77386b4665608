import Foundation

@testable import VariantdCore

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback server of a test's own: a Python script that binds a free port, prints it on its first line,
/// and then answers as the test needs (what no real server can be made to say) and logs what it was sent.
final class ScriptedServer {
    /// The port the script printed.
    let port: String
    private let process: Process

    init(_ script: String, arguments: [String]) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        port = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A loopback HTTP receiver (Python's standard library) appending every POST as a JSON line
    /// `{"headers", "body"}` to the file its argument names; answering 503 to the first when
    /// `failingFirst`, 200 otherwise.
    static func receiver(failingFirst: Bool) -> String {
        """
        import http.server, json, sys
        log = sys.argv[1]
        seen = [0]
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers['Content-Length']))
                with open(log, 'a') as out:
                    out.write(json.dumps({'headers': dict(self.headers), 'body': body.decode()}) + '\\n')
                seen[0] += 1
                self.send_response(503 if \(failingFirst ? "True" : "False") and seen[0] == 1 else 200)
                self.end_headers()
            def log_message(self, *args):
                pass
        server = http.server.HTTPServer(('127.0.0.1', 0), Handler)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """
    }

    /// A client's configuration for this server as an S3 endpoint over `scheme`, trying four times 10–20 ms
    /// apart, so that a test of retries takes milliseconds.
    func s3Configuration(scheme: String = "http", secret: String = "a-secret") throws -> S3Configuration {
        var configuration = try S3Configuration(environment: [
            "AWS_ACCESS_KEY_ID": "AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY": secret,
            "AWS_ENDPOINT_URL_S3": "\(scheme)://127.0.0.1:\(port)",
        ])
        configuration.retry = RetrySchedule(
            tries: 4, first: .milliseconds(10), cap: .milliseconds(20), jitter: 0.5...1)
        // A budget of the test's own: the process-wide one is shared by every test in the process.
        configuration.retryBudget = RetryBudget()
        return configuration
    }

    /// Ends the script; call it in a `defer`, since the server must outlive every request of the test.
    func stop() {
        kill(process.processIdentifier, SIGKILL)
    }
}
