package import Foundation

/// Debian's headless Chromium (installed by scripts/setup.sh), run once per call with a fresh profile in a
/// temporary folder, with `--no-sandbox` (the tests run as root), its output in files, killed past a deadline.
package enum Chromium {
    package static let path = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    package static var isAvailable: Bool { path != nil }

    package struct Failed: Error, CustomStringConvertible {
        package var description: String

        package init(description: String) {
            self.description = description
        }
    }

    /// The DOM after the page loaded and `--virtual-time-budget` of page time ran (promises settle);
    /// `arguments` go before the page (`--force-device-scale-factor=2`).
    package static func dumpDOM(_ page: URL, arguments: [String] = [], within limit: Duration = .seconds(60))
        async throws -> String
    {
        try await run(
            arguments + ["--virtual-time-budget=5000", "--dump-dom", page.absoluteString], within: limit
        ).stdout
    }

    /// A PNG of the page's first `width × height` CSS pixels.
    package static func screenshot(_ page: URL, to png: String, width: Int, height: Int) async throws {
        _ = try await run(
            [
                "--hide-scrollbars", "--window-size=\(width),\(height)", "--screenshot=\(png)",
                page.absoluteString,
            ],
            within: .seconds(60))
    }

    /// What the page wrote with `console.log`, in order, once it closed its own window (`window.close()`):
    /// for work that ends in real time, such as decoding, which a virtual-time budget can cut short.
    package static func consoleMessages(of page: URL, within limit: Duration = .seconds(120)) async throws
        -> [String]
    {
        let log = try await run(["--enable-logging=stderr", "--v=0", page.absoluteString], within: limit)
            .stderr
        // Each message is one line: `[…:INFO:CONSOLE:LINE] "MESSAGE", source: URL (LINE)`.
        return log.split(separator: "\n").compactMap { line in
            guard let start = line.range(of: ":INFO:CONSOLE"),
                let open = line[start.upperBound...].range(of: "] \""),
                let close = line.range(of: "\", source: ", options: .backwards)
            else { return nil }
            return String(line[open.upperBound..<close.lowerBound])
        }
    }

    private static func run(_ arguments: [String], within limit: Duration) async throws -> (
        stdout: String, stderr: String
    ) {
        guard let path else { throw Failed(description: "chromium is not installed") }
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stdout = directory.appendingPathComponent("stdout")
        let stderr = directory.appendingPathComponent("stderr")
        try Data().write(to: stdout)
        try Data().write(to: stderr)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments =
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
                "--user-data-dir=\(directory.path)/profile",
            ] + arguments
        process.standardOutput = try FileHandle(forWritingTo: stdout)
        process.standardError = try FileHandle(forWritingTo: stderr)
        try process.run()
        guard try await process.exited(within: limit) else {
            throw Failed(description: "chromium did not finish within \(limit)")
        }
        guard process.terminationStatus == 0 else {
            throw Failed(description: "chromium exited with status \(process.terminationStatus)")
        }
        return (
            try String(contentsOf: stdout, encoding: .utf8),
            String(decoding: try Data(contentsOf: stderr), as: UTF8.self)
        )
    }
}
