import Foundation
import Testing
import VariantdTestSupport

@testable import VariantdCore

/// Flags, their `VARIANTD_*` twins and the rules checked before the daemon starts.
@Suite struct ServeConfigurationTests {
    private let secret = ["VARIANTD_SECRET": "0123456789abcdef"]

    private func parse(_ words: [String], _ environment: [String: String]) throws(UsageError)
        -> ServeConfiguration
    {
        var arguments = Arguments(words)
        return try ServeConfiguration(parsing: &arguments, environment: environment)
    }

    @Test func defaultsFollowTheRootAndTheSlots() throws {
        let configuration = try parse(["--root", "/srv/store", "--slots", "3"], secret)
        #expect(configuration.listen == .tcp(host: "127.0.0.1", port: 8089))
        #expect(configuration.renditions == "/srv/store")
        #expect(configuration.waitingCapacity == 12)
        #expect(configuration.secret == "0123456789abcdef")
        #expect(configuration.deadline == .seconds(60))
        #expect(configuration.quarantine == "/srv/store/.quarantine.sqlite3")
    }

    @Test func theQuarantineOfAnObjectStorageOutIsInTheDataFolder() throws {
        let s3 = try parse(
            ["--root", "/srv/store", "--out", "s3://renditions/p", "--data-dir", "/srv/data"], secret)
        #expect(s3.quarantine == "/srv/data/quarantine.sqlite3")
        let twin = try parse(
            ["--root", "/srv/store", "--out", "s3://renditions"],
            secret.merging(["VARIANTD_DATA_DIR": "/d"]) { $1 })
        #expect(twin.quarantine == "/d/quarantine.sqlite3")
        let given = try parse(["--root", "s3://b", "--out", "s3://r", "--quarantine", "/q.sqlite3"], secret)
        #expect(given.quarantine == "/q.sqlite3")
    }

    @Test func environmentTwinsApplyAndFlagsWin() throws {
        let environment = secret.merging([
            "VARIANTD_ROOT": "/env/root", "VARIANTD_SLOTS": "2", "VARIANTD_QUEUE_DEPTH": "7",
            "VARIANTD_LISTEN": "unix:/run/variantd.sock", "VARIANTD_DEADLINE": "5",
        ]) { $1 }
        let configuration = try parse(["--slots", "4"], environment)
        #expect(configuration.objects == "/env/root")
        #expect(configuration.slots == 4)
        #expect(configuration.waitingCapacity == 7)
        #expect(configuration.listen == .unix(path: "/run/variantd.sock"))
        #expect(configuration.deadline == .seconds(5))
        #expect(throws: UsageError.self) {
            try parse([], environment.merging(["VARIANTD_SLOTS": "zero"]) { $1 })
        }
    }

    @Test func clientDeadlinesDefaultToNginxsAndTakeTheirTwins() throws {
        let defaults = try parse(["--root", "/srv/store"], secret)
        #expect(defaults.deadlines.header == .seconds(10) && defaults.deadlines.minBodyRate == 1024)
        let given = try parse(
            ["--root", "/srv/store", "--header-timeout", "3"],
            secret.merging(["VARIANTD_MIN_BODY_RATE": "0"]) { $1 })
        #expect(given.deadlines.header == .seconds(3) && given.deadlines.minBodyRate == 0)
        #expect(throws: UsageError.self) { try parse(["--root", "/r", "--header-timeout", "0"], secret) }
        #expect(throws: UsageError.self) { try parse(["--root", "/r", "--min-body-rate", "-1"], secret) }
    }

    @Test func secretRules() throws {
        #expect(throws: UsageError.self) { try parse(["--root", "/r"], [:]) }
        #expect(try parse(["--root", "/r", "--listen", "unix:/tmp/s.sock"], [:]).secret == nil)
        #expect(throws: UsageError.self) { try parse(["--root", "/r"], ["VARIANTD_SECRET": "short"]) }
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("secret")
        try "from-a-file-0123456789\n".write(to: file, atomically: true, encoding: .utf8)
        #expect(
            try parse(["--root", "/r", "--secret-file", file.path], [:]).secret == "from-a-file-0123456789")
        #expect(throws: UsageError.self) { try parse(["--root", "/r", "--secret-file", file.path], secret) }
    }

    @Test func listenAddressesAreLoopbackOrUnix() throws {
        #expect(try ListenAddress(parsing: "localhost:80") == .tcp(host: "127.0.0.1", port: 80))
        #expect(try ListenAddress(parsing: "[::1]:9000") == .tcp(host: "::1", port: 9000))
        #expect(try ListenAddress(parsing: "127.0.0.2:0").description == "127.0.0.2:0")
        for refused in [
            "0.0.0.0:8089", "10.0.0.1:80", "[::]:80", "127.0.0.1", "127.0.0.1:99999", "unix:",
            "example.com:80", "127.0.0.300:1",
        ] {
            #expect(throws: UsageError.self, "\(refused)") { try ListenAddress(parsing: refused) }
        }
    }

    @Test func bearerSecretAdmitsOnlyTheExactSecret() {
        let secret = BearerSecret("0123456789abcdef")
        #expect(secret.admits("Bearer 0123456789abcdef"))
        #expect(secret.admits("bearer 0123456789abcdef"))
        for refused in [
            nil, "", "Bearer ", "Bearer 0123456789abcde", "Bearer 0123456789abcdefg",
            "Bearer 0123456789abcdeF", "Basic 0123456789abcdef", "0123456789abcdef",
            // Lengths 256 apart: the secret followed by anything that long is not the secret.
            "Bearer 0123456789abcdef" + String(repeating: "x", count: 256),
            "Bearer 0123456789abcdef" + String(repeating: "x", count: 512),
        ] {
            #expect(!secret.admits(refused), "\(String(describing: refused))")
        }
    }
}
