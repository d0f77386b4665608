import Foundation
import Variants

/// A tool users would pick instead of variantd, running W1 through `anchors/w1.py`, one core, one job.
struct Anchor: Sendable {
    /// The report's name; the pyvips anchors replace it with the libvips version they actually ran on.
    var tool: String
    var python: String
    /// The argument naming the tool to w1.py.
    var mode: String
    /// Set for pyvips on the libvips setup builds (`/opt/variantd/lib` first on the library path).
    var environment: [String: String] = [:]

    static var all: [Anchor] {
        [
            Anchor(tool: "vipsthumbnail", python: BenchPaths.systemPython, mode: "vipsthumbnail"),
            Anchor(tool: "pyvips-once-8.14", python: BenchPaths.systemPython, mode: "pyvips"),
            Anchor(tool: "pyvips-once-binary", python: BenchPaths.binaryPython, mode: "pyvips"),
            Anchor(
                tool: "pyvips-once-ours", python: BenchPaths.systemPython, mode: "pyvips",
                environment: [
                    "LD_LIBRARY_PATH": (BuildInfo.libvipsPath as NSString).deletingLastPathComponent
                ]),
            Anchor(tool: "pillow", python: BenchPaths.systemPython, mode: "pillow"),
            Anchor(tool: "imagemagick", python: BenchPaths.systemPython, mode: "imagemagick"),
        ]
    }

    /// Whether `scripts/bench-setup.sh` has made this anchor's venv.
    var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: python) }

    func measure(_ files: [String], iterations: Int, warmups: Int) throws -> Measurement {
        try MeasuringProcess.measure(
            python, [BenchPaths.script("w1.py"), mode, String(iterations), String(warmups)] + files,
            pinned: true, environment: environment)
    }
}
