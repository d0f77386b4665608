import Foundation
import Testing
import VariantdTestSupport

/// Programs of every kind the sniffer knows, made when the test runs: a C compiler's output, and the headers of
/// the other formats written byte by byte as their specifications lay them out.
enum Programs {
    /// What `cc` makes of a tiny C program with `flags` (none: the toolchain's default, a position-independent
    /// executable; `-no-pie`; `-shared`).
    static func compiled(_ flags: [String] = []) throws -> [UInt8] {
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent("hello.c")
        let output = folder.appendingPathComponent("hello")
        try Data("int main(void) { return 0; }\n".utf8).write(to: source)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["cc"] + flags + ["-o", output.path, source.path]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "cc \(flags.joined(separator: " ")) failed")
        return [UInt8](try Data(contentsOf: output))
    }

    /// A DOS header whose `e_lfanew` points just past it, at `PE\0\0` and an x86-64 COFF header of an image
    /// without sections.
    static let portableExecutable: [UInt8] = {
        let stub = [Array("MZ".utf8), [UInt8](repeating: 0, count: 0x3A), le32(0x40)]
        let coff = [
            Array("PE\0\0".utf8), le16(0x8664), le16(0), le32(0), le32(0), le32(0), le16(0), le16(0x0002),
        ]
        return Array((stub + coff).joined())
    }()

    /// A 64-bit little-endian Mach-O header (x86-64, `MH_EXECUTE`, no load commands).
    static let machO64LittleEndian = Array(
        [[0xCF, 0xFA, 0xED, 0xFE], le32(0x0100_0007), le32(3), le32(2), le32(0), le32(0), le32(0), le32(0)]
            .joined())

    /// A universal Mach-O header for two architectures (x86-64 and arm64), big-endian as the format is.
    static let machOUniversal = Array(
        [
            [0xCA, 0xFE, 0xBA, 0xBE], be32(2),
            be32(0x0100_0007), be32(3), be32(0x1000), be32(0x20), be32(12),
            be32(0x0100_000C), be32(0), be32(0x2000), be32(0x20), be32(12),
        ].joined())

    /// The start of a Java class file of `major` (52 is Java 8) and `minor`: an empty constant pool, public,
    /// no interfaces, fields, methods or attributes.
    static func javaClass(major: UInt16 = 52, minor: UInt16 = 0) -> [UInt8] {
        let fields = [minor, major, 1, 0x0021, 0, 0, 0, 0, 0, 0].map(be16)
        return Array(([[0xCA, 0xFE, 0xBA, 0xBE]] + fields).joined())
    }

    /// A WebAssembly module: its 8-byte header (`\0asm`, version 1) and an empty type section.
    static let wasm: [UInt8] = [0x00, 0x61, 0x73, 0x6D, 0x01, 0x00, 0x00, 0x00, 0x01, 0x01, 0x00]

    /// A Dalvik executable's 0x70-byte header, version 035, with its size, header size and endian tag.
    static let dex: [UInt8] = {
        var bytes = Array("dex\n035\0".utf8) + [UInt8](repeating: 0, count: 0x70 - 8)
        bytes.replaceSubrange(32..<44, with: [le32(0x70), le32(0x70), le32(0x1234_5678)].joined())
        return bytes
    }()

    static let shellScript = Array("#!/bin/sh\necho hello\n".utf8)

    /// Each program made byte by byte, with the type it sniffs as.
    static let written: [(name: String, bytes: [UInt8], type: String)] = [
        ("pe", portableExecutable, "application/vnd.microsoft.portable-executable"),
        ("macho-64-le", machO64LittleEndian, "application/x-mach-binary"),
        ("macho-universal", machOUniversal, "application/x-mach-binary"),
        ("java-class", javaClass(), "application/java-vm"),
        ("wasm", wasm, "application/wasm"),
        ("dex", dex, "application/vnd.android.dex"),
        ("script", shellScript, "text/x-shellscript"),
    ]

    private static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    private static func be16(_ value: UInt16) -> [UInt8] { le16(value).reversed() }
    private static func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(value >> (8 * $0) & 0xFF) } }
    private static func be32(_ value: UInt32) -> [UInt8] { le32(value).reversed() }
}
