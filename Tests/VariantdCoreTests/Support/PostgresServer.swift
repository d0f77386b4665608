import Foundation
import Testing
import VariantdTestSupport

@testable import VariantdCore

#if canImport(Glibc)
    import Glibc
#endif

/// A throwaway PostgreSQL server for a test suite: `initdb` into a temporary directory owned by the
/// `postgres` user (initdb refuses root), started with `pg_ctl` on a free loopback port with its socket in
/// that directory, and stopped and removed afterwards. Each test gets a database of its own.
final class PostgresServer: Sendable {
    /// Debian's `postgresql` package; `scripts/setup.sh` installs it.
    static let binaries: String? = {
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return versions.sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }.map { "\(root)/\($0)/bin" }
            .first { FileManager.default.isExecutableFile(atPath: "\($0)/pg_ctl") }
    }()

    static var isAvailable: Bool { binaries != nil }

    @TaskLocal static var current: PostgresServer?

    let directory: String
    let port: Int
    let binaries: String

    private var options: String {
        "-c listen_addresses=127.0.0.1 -c port=\(port) -k \(directory) -c fsync=off -c max_connections=200"
    }

    /// A server whose data directory is yet to be filled: `directory` (owned by `postgres`) and `port` are
    /// its own.
    init(binaries: String, directory: String, port: Int) {
        self.binaries = binaries
        self.directory = directory
        self.port = port
    }

    private convenience init(binaries: String) throws {
        let directory = try TestPaths.temporaryDirectory().path
        self.init(binaries: binaries, directory: directory, port: try LoopbackPorts.free(1)[0])
        try Self.run(["chown", "postgres:postgres", directory])
        try Self.run(
            [
                "runuser", "-u", "postgres", "--", "\(binaries)/initdb", "-D", "\(directory)/data", "-A",
                "trust",
                "-U", "postgres", "--no-sync", "-E", "UTF8",
            ])
        try start()
    }

    func start() throws {
        try Self.run(
            [
                "runuser", "-u", "postgres", "--", "\(binaries)/pg_ctl", "-D", "\(directory)/data", "-l",
                "\(directory)/log", "-o", options, "-w", "-t", "60", "start",
            ])
    }

    /// Stops the server as a crash or a fail-over would (`immediate`: every connection cut, no
    /// checkpoint).
    func stopAtOnce() throws {
        try Self.run(
            [
                "runuser", "-u", "postgres", "--", "\(binaries)/pg_ctl", "-D", "\(directory)/data", "-m",
                "immediate", "-w", "stop",
            ])
    }

    /// Stops the server at once, keeps it down for `pause`, and starts it again on the same address. `pg_ctl`
    /// is waited for on a Dispatch thread: the suites running beside share the cooperative threads.
    func restart(after pause: Duration) async throws {
        try await Blocking.run { try self.stopAtOnce() }.get()
        try await Task.sleep(for: pause)
        try await Blocking.run { try self.start() }.get()
    }

    /// Stops the server at once, if it runs, and removes its directory.
    func stop() {
        try? stopAtOnce()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The URL of a fresh, empty database on this server.
    func freshDatabase() throws -> String {
        let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try PostgresConnection(url: url("postgres")).query("CREATE DATABASE \(name)")
        return url(name)
    }

    func url(_ database: String) -> String {
        "postgres://postgres@127.0.0.1:\(port)/\(database)"
    }

    /// Starts a server around `body`, and stops it after, even when `body` throws.
    static func scoped(_ body: () async throws -> Void) async throws {
        guard let binaries else {
            try await body()
            return
        }
        let server = try PostgresServer(binaries: binaries)
        defer { server.stop() }
        try await $current.withValue(server) { try await body() }
    }

    /// Runs a command to its end. Output goes to a file, not a pipe, which the server would inherit and hold
    /// open; `SpawnedProcess` hands the command nothing else of this process's, so the server started by
    /// `pg_ctl start` holds none of the descriptors other tests are waiting on.
    static func run(_ arguments: [String]) throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pg-\(UUID().uuidString).log"
        ).path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let process = try SpawnedProcess.logging(
            arguments[0], arguments: Array(arguments.dropFirst()), to: output)
        guard process.waitForExit() == .exited(0) else {
            let message = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            throw QueueError("\(arguments.joined(separator: " ")) failed: \(message)")
        }
    }
}

/// Runs a suite inside one PostgreSQL server's life (`@Suite(.postgresServer)`).
struct PostgresServerTrait: SuiteTrait, TestScoping {
    var isRecursive: Bool { false }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await PostgresServer.scoped(function)
    }
}

extension Trait where Self == PostgresServerTrait {
    static var postgresServer: Self { PostgresServerTrait() }
}
