import Foundation
import VariantdTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Debian's headless Chromium (installed by scripts/setup.sh), run once per call with a fresh profile in a
/// temporary folder, with `--no-sandbox` (the tests run as root), its output in files, killed past a deadline.
enum Chromium {
    static let path = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    static var isAvailable: Bool { path != nil }

    struct Failed: Error, CustomStringConvertible {
        var description: String
    }

    /// The DOM after the page loaded and `--virtual-time-budget` of page time ran (promises settle).
    static func dumpDOM(_ page: URL, within limit: Duration = .seconds(60)) async throws -> String {
        try await run(["--virtual-time-budget=5000", "--dump-dom", page.absoluteString], within: limit)
    }

    /// A PNG of the page's first `width × height` CSS pixels.
    static func screenshot(_ page: URL, to png: String, width: Int, height: Int) async throws {
        _ = try await run(
            [
                "--hide-scrollbars", "--window-size=\(width),\(height)", "--screenshot=\(png)",
                page.absoluteString,
            ],
            within: .seconds(60))
    }

    /// Waits with `Task.sleep`, not blocking a thread of the cooperative pool other tests share.
    private static func run(_ arguments: [String], within limit: Duration) async throws -> String {
        guard let path else { throw Failed(description: "chromium is not installed") }
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stdout = directory.appendingPathComponent("stdout")
        try Data().write(to: stdout)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments =
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
                "--user-data-dir=\(directory.path)/profile",
            ] + arguments
        process.standardOutput = try FileHandle(forWritingTo: stdout)
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = ContinuousClock.now + limit
        while process.isRunning && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw Failed(description: "chromium did not finish within \(limit)")
        }
        guard process.terminationStatus == 0 else {
            throw Failed(description: "chromium exited with status \(process.terminationStatus)")
        }
        return try String(contentsOf: stdout, encoding: .utf8)
    }
}
