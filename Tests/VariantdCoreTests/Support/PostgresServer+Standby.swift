import Foundation
import VariantdTestSupport

@testable import VariantdCore

extension PostgresServer {
    /// A hot standby of this server, streaming from it on a loopback port of its own and replicating
    /// synchronously: a commit this server reports has reached the standby, so a fail-over to it loses
    /// nothing a client saw committed. Copied with `pg_basebackup -R` over replication from 127.0.0.1,
    /// which the `pg_hba.conf` of `initdb -A trust` allows. The caller stops it (`stop()`).
    func standby() async throws -> PostgresServer {
        let directory = try TestPaths.temporaryDirectory().path
        let standby = PostgresServer(
            binaries: binaries, directory: directory, port: try LoopbackPorts.free(1)[0])
        try Self.run(["chown", "postgres:postgres", directory])
        try Self.run(
            [
                "runuser", "-u", "postgres", "--", "\(binaries)/pg_basebackup", "-h", "127.0.0.1", "-p",
                String(port), "-U", "postgres", "-D", "\(directory)/data", "-R", "-X", "stream", "-c", "fast",
                "--no-sync",
            ])
        try standby.start()
        // Synchronous only once the standby streams: until then, every commit here would wait for it.
        let primary = try PostgresConnection(url: url("postgres"))
        try await waitFor("the standby streams from the primary", on: primary, state: "async")
        try primary.query("ALTER SYSTEM SET synchronous_standby_names = '*'")
        try primary.query("SELECT pg_reload_conf()")
        try await waitFor("the standby replicates synchronously", on: primary, state: "sync")
        return standby
    }

    /// Makes this standby the primary (`pg_ctl promote`), waiting until it takes writes.
    func promote() throws {
        try Self.run(
            [
                "runuser", "-u", "postgres", "--", "\(binaries)/pg_ctl", "-D", "\(directory)/data", "-w",
                "promote",
            ])
    }

    /// Waits until the primary's one standby streams in `state` (`async`, `sync`) of `pg_stat_replication`.
    private func waitFor(_ what: String, on primary: PostgresConnection, state: String) async throws {
        // Generous: a loaded machine may take long, and nothing here waits longer than it must.
        let deadline = ContinuousClock.now + .seconds(120)
        while try primary.query(
            "SELECT sync_state FROM pg_stat_replication WHERE state = 'streaming'"
        ).first?[0] != state {
            guard ContinuousClock.now < deadline else { throw QueueError("not within 120 s: \(what)") }
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}
