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

    private init(binaries: String) throws {
        directory = try TestPaths.temporaryDirectory().path
        port = try LoopbackPorts.free(1)[0]
        try Self.run(["chown", "postgres:postgres", directory])
        try Self.run(
            [
                "runuser", "-u", "postgres", "--", "\(binaries)/initdb", "-D", "\(directory)/data", "-A",
                "trust",
                "-U", "postgres", "--no-sync", "-E", "UTF8",
            ])
        let options =
            "-c listen_addresses=127.0.0.1 -c port=\(port) -k \(directory) -c fsync=off -c max_connections=200"
        try Self.run(
            [
                "runuser", "-u", "postgres", "--", "\(binaries)/pg_ctl", "-D", "\(directory)/data", "-l",
                "\(directory)/log", "-o", options, "-w", "-t", "60", "start",
            ])
    }

    /// Stops the server at once and removes its directory.
    private func stop() {
        if let binaries = Self.binaries {
            try? Self.run(
                [
                    "runuser", "-u", "postgres", "--", "\(binaries)/pg_ctl", "-D", "\(directory)/data", "-m",
                    "immediate", "-w", "stop",
                ])
        }
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

    /// Runs a command to its end with posix_spawn and waitpid. Foundation's `Process` is not used: it did not
    /// notice `runuser … pg_ctl start` exiting while the server it started lived on. Output goes to a file,
    /// not a pipe, which the server would inherit and hold open.
    private static func run(_ arguments: [String]) throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pg-\(UUID().uuidString).log"
        ).path
        defer { try? FileManager.default.removeItem(atPath: output) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var argv = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        guard posix_spawnp(&pid, arguments[0], &actions, nil, &argv, environ) == 0 else {
            throw QueueError("\(arguments[0]) cannot be started")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        guard status == 0 else {
            let message = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            throw QueueError("\(arguments.joined(separator: " ")) failed (\(status)): \(message)")
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
