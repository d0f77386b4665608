package import Foundation

/// Where the tests find the built `variantd` binary, the repository's samples and the shared corpus.
package enum TestPaths {
    package static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    package static let samples = packageRoot.appendingPathComponent("Samples")

    /// `../shared` beside the checkout, the third-party test corpus; absent in a plain clone.
    package static let shared = packageRoot.deletingLastPathComponent().appendingPathComponent("shared")

    /// The `variantd` executable `swift test` built next to the test bundle.
    package static var variantd: String {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("variantd").path
    }

    /// A fresh temporary directory, removed by the caller. Under `scripts/run-tests.sh` its name holds the
    /// run's `VARIANTD_TEST_RUN`, so that the script's end sweep stops the test servers of this run only.
    package static func temporaryDirectory() throws -> URL {
        let run = ProcessInfo.processInfo.environment["VARIANTD_TEST_RUN"].map { $0 + "-" } ?? ""
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "variantd-tests-\(run)\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
