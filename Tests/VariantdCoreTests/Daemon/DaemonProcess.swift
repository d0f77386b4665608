import Foundation
import Testing
import VariantdTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A `variantd serve` (or `variantd work --listen`) started for one test on an ephemeral loopback port (or a
/// Unix socket), driven over real HTTP with Debian's `curl`, and always killed when the test lets go of it.
final class DaemonProcess {
    static let secret = "test-secret-0123456789abcdef"

    let directory: URL
    let process = Process()
    /// `127.0.0.1:PORT`, or the Unix socket's path.
    private(set) var address = ""
    let isUnix: Bool

    /// Starts the daemon with `arguments` after `command` and waits (at most 120 s) for its listening line;
    /// `environment` is added to the test process's own; `launcher`, when given, is the program and arguments
    /// that start the daemon's own command line. `work` logs its JSON lines on stdout, `serve` on stderr.
    init(
        _ arguments: [String], directory: URL, secret: Bool = true, command: String = "serve",
        environment extra: [String: String] = [:], launcher: [String] = []
    ) throws {
        self.directory = directory
        isUnix = arguments.contains { $0.hasPrefix("unix:") }
        let line = launcher + [TestPaths.variantd, command] + arguments
        process.executableURL = URL(fileURLWithPath: line[0])
        process.arguments = Array(line.dropFirst())
        var environment = ProcessInfo.processInfo.environment
        environment["VARIANTD_SECRET"] = secret ? Self.secret : nil
        // The daemon's own data folder, where its default queue is: never shared with another test's.
        environment["VARIANTD_DATA_DIR"] = directory.appendingPathComponent("data").path
        environment.merge(extra) { $1 }
        process.environment = environment
        try Data().write(to: URL(fileURLWithPath: logPath))
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        process.standardError = command == "work" ? FileHandle.nullDevice : log
        process.standardOutput = command == "work" ? log : FileHandle.nullDevice
        try process.run()
        let listening = try waitForLog(event: "listening")
        address = (listening["listen"] as? String ?? "").replacingOccurrences(of: "unix:", with: "")
    }

    deinit {
        kill()
    }

    var logPath: String { directory.appendingPathComponent("daemon.log").path }

    /// Every JSON line the daemon logged so far.
    var log: [[String: Any]] {
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// How the daemon ended, for a test's message when it should still be running: its exit status or
    /// signal and its log's last lines, or the runtime's crash report from its first line (the crashed
    /// thread's frames come first in it).
    var lastWords: String {
        guard !process.isRunning else { return "running" }
        let reason = process.terminationReason == .uncaughtSignal ? "killed by signal" : "exited with"
        let lines = ((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "").split(separator: "\n")
        let report = lines.firstIndex { $0.contains("Program crashed") }.map { lines[$0...].prefix(60) }
        let shown = report ?? lines.suffix(15)
        return "\(reason) \(process.terminationStatus); log:\n" + shown.joined(separator: "\n")
    }

    /// Waits for a log line with `event`, beyond the ones already seen `after` times.
    @discardableResult
    func waitForLog(event: String, after count: Int = 0, timeout: Duration = .seconds(120)) throws -> [String:
        Any]
    {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let matches = log.filter { $0["event"] as? String == event }
            if matches.count > count { return matches[count] }
            guard process.isRunning else { break }
            Thread.sleep(forTimeInterval: 0.02)
        }
        throw DaemonFailure(
            description: "no '\(event)' line; log:\n"
                + ((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""))
    }

    /// An HTTP request in flight in a `curl` process.
    final class Call {
        let curl = Process()
        let bodyPath: String

        init(_ arguments: [String], bodyPath: String) throws {
            self.bodyPath = bodyPath
            curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            curl.arguments = arguments
            curl.standardOutput = Pipe()
            curl.standardError = FileHandle.nullDevice
            try curl.run()
        }

        /// Waits for the answer (curl itself gives up after 60 s).
        func finish() throws -> Reply {
            let output = (curl.standardOutput as! Pipe).fileHandleForReading.readDataToEndOfFile()
            curl.waitUntilExit()
            let fields = String(decoding: output, as: UTF8.self).components(separatedBy: "\n")
            let body = FileManager.default.contents(atPath: bodyPath) ?? Data()
            try? FileManager.default.removeItem(atPath: bodyPath)
            return Reply(
                curlStatus: curl.terminationStatus, status: Int(fields.first ?? "") ?? 0,
                retryAfter: fields.count > 1 ? fields[1] : "", contentType: fields.count > 2 ? fields[2] : "",
                authenticate: fields.count > 3 ? fields[3] : "", allow: fields.count > 4 ? fields[4] : "",
                body: Array(body))
        }
    }

    struct Reply {
        var curlStatus: Int32
        var status: Int
        var retryAfter: String
        var contentType: String
        var authenticate: String
        var allow: String
        var body: [UInt8]

        var text: String { String(decoding: body, as: UTF8.self) }

        var json: [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]) ?? [:]
        }

        /// The wire error code of an error answer.
        var error: String? { json["error"] as? String }
    }

    /// Starts a request; a body is sent from `bodyFile` when given, else from `body`, with `contentType`.
    /// `curlOptions` go before the URL (`-H "Transfer-Encoding: chunked"`, `--limit-rate 8M`).
    func start(
        _ method: String, _ path: String, body: [UInt8]? = nil, bodyFile: String? = nil,
        contentType: String = "application/json", curlOptions: [String] = [],
        authorization: String? = "Bearer " + secret
    )
        throws -> Call
    {
        let bodyPath = directory.appendingPathComponent("reply-\(UUID().uuidString)").path
        var arguments = [
            "-sS", "--max-time", "60", "-o", bodyPath, "-X", method,
            "-w",
            "%{http_code}\n%header{retry-after}\n%header{content-type}\n%header{www-authenticate}\n%header{allow}",
        ]
        if let authorization, !isUnix { arguments += ["-H", "Authorization: \(authorization)"] }
        var requestPath = bodyFile
        if let body, requestPath == nil {
            requestPath = directory.appendingPathComponent("request-\(UUID().uuidString)").path
            try Data(body).write(to: URL(fileURLWithPath: requestPath!))
        }
        if let requestPath {
            arguments += ["-H", "Content-Type: \(contentType)", "--data-binary", "@" + requestPath]
        }
        arguments += curlOptions
        if isUnix {
            arguments += ["--unix-socket", address, "http://localhost" + path]
        } else {
            arguments.append("http://\(address)\(path)")
        }
        return try Call(arguments, bodyPath: bodyPath)
    }

    func send(
        _ method: String, _ path: String, body: [UInt8]? = nil, bodyFile: String? = nil,
        contentType: String = "application/json", curlOptions: [String] = [],
        authorization: String? = "Bearer " + secret
    )
        throws -> Reply
    {
        try start(
            method, path, body: body, bodyFile: bodyFile, contentType: contentType, curlOptions: curlOptions,
            authorization: authorization
        ).finish()
    }

    /// Posts a job given as JSON fields.
    func job(_ fields: [String: Any], authorization: String? = "Bearer " + secret) throws -> Reply {
        try send(
            "POST", "/v1/jobs", body: Array(try JSONSerialization.data(withJSONObject: fields)),
            authorization: authorization)
    }

    func signal(_ number: Int32) {
        Glibc.kill(process.processIdentifier, number)
    }

    /// The exit status, or nil when the daemon is still running after `timeout`.
    func waitForExit(timeout: Duration = .seconds(30)) -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.02)
        }
        return process.isRunning ? nil : process.terminationStatus
    }

    func kill() {
        if process.isRunning {
            Glibc.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// The value of one metrics line (`variantd_jobs_in_flight`), if present.
    func metric(_ name: String) throws -> Double? {
        let text = try send("GET", "/metrics").text
        return text.split(separator: "\n").first { $0.hasPrefix(name + " ") }
            .flatMap { Double($0.split(separator: " ").last ?? "") }
    }
}

struct DaemonFailure: Error, CustomStringConvertible {
    var description: String
}
