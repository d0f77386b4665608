import Foundation
import Testing
import VariantdCore

/// Runs the shared reference vectors through the Swift code and has `oracle.py` grade every bit.
///
/// The vectors live outside the package, in `../shared/thumbhash`; without them the tests are skipped.
@Suite struct VectorSuiteTests {
    /// `Tests/VariantdCoreTests/ThumbHash/<this file>` → the package root → its sibling `shared`.
    static let shared = URL(filePath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "shared/thumbhash", directoryHint: .isDirectory)
    static let oracle = shared.appending(path: "oracle.py")
    static let available = FileManager.default.fileExists(atPath: oracle.path)

    @Test(
        .enabled(if: available, "needs ../shared/thumbhash next to the package"),
        arguments: ["public", "photos"]
    )
    func sharedFolderPassesStrictCheck(folder: String) throws {
        let directory = Self.shared.appending(path: folder, directoryHint: .isDirectory)
        let result = try grade(VectorSuite(directory: directory))
        #expect(result.status == 0, "oracle.py check --strict failed:\n\(result.output)")
        #expect(result.output.contains("PASS (strict)"))
    }

    @Test(.enabled(if: available, "needs ../shared/thumbhash next to the package"))
    func freshSeedPassesStrictCheck() throws {
        let seed = "swift-\(UInt32.random(in: 0...UInt32.max))"
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let generated = try Self.python([Self.oracle.path, "gen", directory.path, "60", seed])
        try #require(generated.status == 0, "oracle.py gen failed:\n\(generated.output)")
        let result = try grade(VectorSuite(directory: directory))
        #expect(result.status == 0, "seed \(seed) failed oracle.py check --strict:\n\(result.output)")
    }

    @Test(.enabled(if: available, "needs ../shared/thumbhash next to the package"))
    func rejectedCasesCarryTheErrorCode() throws {
        let directory = Self.shared.appending(path: "public", directoryHint: .isDirectory)
        let suite = try VectorSuite(directory: directory)
        let rejected = try #require(suite.cases.first { $0.expect.error != nil })
        let line = try suite.candidateLine(for: rejected)
        #expect(line.contains("\"error\":\"dimensions_out_of_range\""))
        #expect(!line.contains("\"hash\""))
    }

    /// Writes the suite's candidate lines to a temporary file and runs `oracle.py check --strict` on them.
    private func grade(_ suite: VectorSuite) throws -> (status: Int32, output: String) {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let candidate = directory.appending(path: "candidate.jsonl")
        try suite.candidate().write(to: candidate, atomically: true, encoding: .utf8)
        return try Self.python([Self.oracle.path, "check", suite.directory.path, candidate.path, "--strict"])
    }

    private static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appending(path: "variantd-vectors-\(UUID().uuidString)", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    private static func python(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(filePath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
