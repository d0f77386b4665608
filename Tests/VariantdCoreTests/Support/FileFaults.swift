import Foundation
import Testing
import VariantdTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// libfiu (Debian's `fiu-utils`) failing the opens of files in a process the tests start, as `fiu-run -x`
/// does, but never an open under /proc: `FileFaults.c`, preloaded ahead of libfiu's wrappers, sends those
/// straight to the C library. A failing disk cannot fail /proc, and libdispatch stops a process whose
/// thread-pool monitor could not open /proc/<thread>/stat — under load it looks every second.
///
/// libfiu makes control pipes for every process it is preloaded in (a daemon's decoder children too) and a
/// process that dies by a signal leaves them: they go in the test's own folder, removed with it.
struct FileFaults {
    /// Where libfiu makes each process's control pipes, `<prefix>-<pid>.in` and `.out`.
    private let controlPrefix: String

    init(in folder: URL) {
        controlPrefix = folder.appendingPathComponent("fiu-ctrl").path
    }

    static let isAvailable =
        FileManager.default.isExecutableFile(atPath: "/usr/bin/fiu-ctrl")
        && FileManager.default.isExecutableFile(atPath: "/usr/bin/cc")

    /// The command line that starts a program under the faults, with `command` (libfiu's remote-control
    /// syntax, as `fiu-ctrl -c` takes) in force from its start when given.
    func launcher(enabling command: String? = nil) throws -> [String] {
        guard let preload = Self.preload else { throw BuildFailure() }
        let libraries = ["/usr/lib/fiu/fiu_run_preload.so", "/usr/lib/fiu/fiu_posix_preload.so"]
        return [
            "/usr/bin/env", "FIU_ENABLE=\(command ?? "")", "FIU_CTRL_FIFO=\(controlPrefix)",
            "LD_PRELOAD=" + ([preload] + libraries).joined(separator: " "),
        ]
    }

    /// Runs a libfiu remote-control command in the running process `processID`. `fiu-ctrl` writes to the
    /// process's control pipe, which blocks for good once the process is dead and its pipe left behind (a
    /// crash never removes it), so it is given 60 s and then killed, failing the test instead of hanging it.
    func control(_ processID: Int32, _ command: String) async throws {
        try #require(kill(processID, 0) == 0, "fiu-ctrl -c \(command): process \(processID) is gone")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/fiu-ctrl")
        process.arguments = ["-f", controlPrefix, "-c", command, "\(processID)"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        try #require(
            try await process.exited(within: .seconds(60)),
            "fiu-ctrl -c \(command): no answer from process \(processID) within 60 s")
        // It exits 0 whatever happened, saying "Error: unknown pid" when the process is gone before it looks
        // and "returned error" when libfiu refused the command.
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        try #require(
            process.terminationStatus == 0 && !said.lowercased().contains("error"),
            "fiu-ctrl -c \(command): \(said)")
    }

    /// `FileFaults.c` built once per test process, beside the test bundle; nil when it could not be.
    private static let preload: String? = {
        let source = URL(fileURLWithPath: #filePath).deletingPathExtension().appendingPathExtension("c")
        let library = URL(fileURLWithPath: TestPaths.variantd).deletingLastPathComponent()
            .appendingPathComponent("file-faults.so").path
        // Built under a name of this process's own and moved into place, so that two test runs never
        // preload a half-written library.
        let building = library + ".\(ProcessInfo.processInfo.processIdentifier)"
        let compiler = Process()
        compiler.executableURL = URL(fileURLWithPath: "/usr/bin/cc")
        compiler.arguments = ["-shared", "-fPIC", "-O2", "-o", building, source.path, "-ldl"]
        guard (try? compiler.run()) != nil else { return nil }
        compiler.waitUntilExit()
        guard compiler.terminationStatus == 0, rename(building, library) == 0 else { return nil }
        return library
    }()

    private struct BuildFailure: Error, CustomStringConvertible {
        var description: String { "cc could not build FileFaults.c into a library to preload" }
    }
}
