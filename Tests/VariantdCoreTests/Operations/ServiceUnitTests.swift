import Foundation
import Testing
import VariantdTestSupport

/// `scripts/install.sh` into a temporary root, and systemd's own verifier on the units it installs.
@Suite struct ServiceUnitTests {
    static let analyzer = "/usr/bin/systemd-analyze"

    private func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws
        -> (status: Int32, output: String)
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Installs into a fresh root that also holds systemd's unit library, which `verify --root` resolves
    /// dependencies (`network.target`, …) against; the host need not run systemd.
    private func installedRoot() throws -> URL {
        let root = try TestPaths.temporaryDirectory()
        let script = TestPaths.packageRoot.appendingPathComponent("scripts/install.sh").path
        let installed = try run(
            "/bin/bash", [script, "--binary", TestPaths.variantd], environment: ["DESTDIR": root.path])
        try #require(installed.status == 0, "\(installed.output)")
        let library = root.appendingPathComponent("usr/lib/systemd")
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "/usr/lib/systemd/system", toPath: library.path + "/system")
        // ExecReload's kill is the host's; a stand-in satisfies the verifier where procps is absent.
        let bin = root.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let kill = FileManager.default.fileExists(atPath: "/bin/kill") ? "/bin/kill" : "/bin/true"
        try FileManager.default.copyItem(atPath: kill, toPath: bin.path + "/kill")
        return root
    }

    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: analyzer), "systemd-analyze is not installed"))
    func theInstalledUnitsPassSystemdsVerifier() throws {
        let root = try installedRoot()
        defer { try? FileManager.default.removeItem(at: root) }
        let verified = try run(
            Self.analyzer,
            [
                "verify", "--man=no", "--root=\(root.path)", "/etc/systemd/system/variantd-serve.service",
                "/etc/systemd/system/variantd-work@default.service",
            ])
        #expect(verified.status == 0, "\(verified.output)")
        #expect(verified.output.isEmpty, "a warning is a unit mistake: \(verified.output)")
        for file in [
            "usr/local/bin/variantd", "etc/variantd/variantd.env", "etc/variantd/secret",
            "etc/variantd/buckets/post-images.json", "var/lib/variantd/renditions",
        ] {
            #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent(file).path), "\(file)")
        }
    }

    @Test func theUnitsKeepTheirHardening() throws {
        for unit in ["variantd-serve.service", "variantd-work@.service"] {
            let text = try String(
                contentsOf: TestPaths.packageRoot.appendingPathComponent("scripts/systemd/\(unit)"),
                encoding: .utf8)
            let lines = Set(text.split(separator: "\n").map(String.init))
            for setting in [
                "User=variantd", "NoNewPrivileges=yes", "ProtectSystem=strict",
                "ReadWritePaths=/var/lib/variantd",
                "PrivateTmp=yes", "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6", "LimitCORE=0",
                "Restart=on-failure", "MemoryMax=4G",
                "SystemCallFilter=@system-service seccomp landlock_create_ruleset landlock_restrict_self",
            ] {
                #expect(lines.contains(setting), "\(unit) lacks \(setting)")
            }
        }
    }

    /// systemd's default KillMode (control-group) sends the stop's SIGTERM to the decoder children too: a
    /// picture being decoded then "killed the decoder" (signal 15), is quarantined, and the worker's next
    /// claim refuses it as unreadable for good. Only the main process may get it; it stops its children.
    @Test func aStopSignalsOnlyTheMainProcess() throws {
        for unit in ["variantd-serve.service", "variantd-work@.service"] {
            let text = try String(
                contentsOf: TestPaths.packageRoot.appendingPathComponent("scripts/systemd/\(unit)"),
                encoding: .utf8)
            #expect(text.split(separator: "\n").contains("KillMode=mixed"), "\(unit) lacks KillMode=mixed")
        }
    }
}
