import Foundation
import Testing

@testable import Variants

@Suite struct LoaderSelfCheckTests {
    init() throws {
        try Vips.start()
    }

    @Test(arguments: LoaderSelfCheck.blocked.map(\.format))
    func blockedFormatsDoNotOpen(format: String) throws {
        let sample = try #require(LoaderSelfCheck.blocked.first { $0.format == format })
        #expect(!Vips.genericLoaderOpens(sample.bytes))
    }

    @Test func allowedFormatsStillOpen() throws {
        #expect(Vips.genericLoaderOpens(LoaderSelfCheck.allowedControl))
        #expect(Vips.genericLoaderOpens(try Samples.bytes("pictures/gradient-alpha.png")))
        #expect(Vips.genericLoaderOpens(try Samples.bytes("pictures/gradient.webp")))
        #expect(Vips.genericLoaderOpens(try Samples.bytes("pictures/gradient.gif")))
    }

    @Test func heifStaysWithLibheifNotLibvips() throws {
        #expect(!Vips.genericLoaderOpens(try Samples.bytes("pictures/rgb-29x100.heif")))
    }
}

/// The samples are only evidence if an unblocked libvips does open them: `vipsheader` (Debian's
/// libvips-tools, which blocks nothing) must read each one.
@Suite struct LoaderSelfCheckSampleTests {
    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/vipsheader"), "vipsheader is absent"),
        arguments: LoaderSelfCheck.blocked.map(\.format))
    func unblockedLibvipsOpensTheSample(format: String) throws {
        let sample = try #require(LoaderSelfCheck.blocked.first { $0.format == format })
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "selfcheck-\(UUID().uuidString)")
        try Data(sample.bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/vipsheader")
        process.arguments = [file.path]
        // Our libvips, started in this process, sets VIPSHOME to its prefix: the system one must not look
        // there for its loader modules.
        process.environment = ProcessInfo.processInfo.environment.filter { $0.key != "VIPSHOME" }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }
}
