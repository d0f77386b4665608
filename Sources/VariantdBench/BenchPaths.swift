import Foundation
import VariantdCore

/// Where the benchmark finds its anchor scripts and the venvs `scripts/bench-setup.sh` makes: the package
/// checkout the running binary was built in (`.build/…/variantd`), else the working directory.
enum BenchPaths {
    static let root: String = {
        var url = URL(fileURLWithPath: Executable.current).deletingLastPathComponent()
        while url.path != "/" {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent(anchors).path) {
                return url.path
            }
            url.deleteLastPathComponent()
        }
        return FileManager.default.currentDirectoryPath
    }()

    static let anchors = "scripts/bench/anchors"

    static func script(_ name: String) -> String { "\(root)/\(anchors)/\(name)" }

    /// The venv with pyvips on the system libvips, Pillow, pillow-heif, numpy and thumbhash-rs.
    static var systemPython: String { root + "/.build/bench-venv/bin/python3" }

    /// The venv whose pyvips runs on the libvips the pyvips-binary wheel bundles.
    static var binaryPython: String { root + "/.build/bench-venv-binary/bin/python3" }

    /// The venv with the PyPI package ssimulacra2, the referee of `bench --quality`.
    static var scorePython: String { root + "/.build/bench-venv-ssimulacra2/bin/python3" }
}
