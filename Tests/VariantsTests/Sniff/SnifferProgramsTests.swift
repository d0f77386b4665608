import Testing

@testable import Variants

/// Programs are told from their bytes, and only from bytes that are one: the look-alikes (Java's `CAFEBABE`, a
/// bare `MZ`, a `#!` in prose) keep their own type.
@Suite struct SnifferProgramsTests {
    private func sniff(_ bytes: [UInt8]) -> String? { Sniffer.sniff(bytes[...])?.mimeType }

    /// Whatever `cc` makes, a program, a position-independent one or a shared library, is one ELF type.
    @Test(arguments: [[], ["-no-pie"], ["-shared", "-fPIC"]])
    func compiledProgramsAreELF(flags: [String]) throws {
        let bytes = try Programs.compiled(flags)
        #expect(sniff(bytes) == "application/x-executable")
        #expect(MediaType.elf.isExecutable && !MediaType.elf.isPicture && !MediaType.elf.isDecodable)
    }

    @Test(arguments: Programs.written.indices)
    func writtenProgramsSniffAsTheirType(index: Int) throws {
        let program = Programs.written[index]
        #expect(sniff(program.bytes) == program.type, "\(program.name)")
        let type = try #require(MediaType(rawValue: program.type))
        #expect(type.isExecutable && !type.isDecodable)
    }

    @Test(
        arguments: [
            [0xFE, 0xED, 0xFA, 0xCE], [0xFE, 0xED, 0xFA, 0xCF], [0xCE, 0xFA, 0xED, 0xFE],
            [0xCF, 0xFA, 0xED, 0xFE],
        ] as [[UInt8]])
    func everyThinMachOMagic(magic: [UInt8]) {
        #expect(sniff(magic + [UInt8](repeating: 0, count: 28)) == "application/x-mach-binary")
    }

    /// A universal header counts its architectures in the word after the magic; a class file has its version
    /// there, whose major part is 45 or more.
    @Test func javaClassesAndUniversalBinariesAreToldApart() {
        #expect(sniff(Programs.javaClass()) == "application/java-vm")
        #expect(sniff(Programs.javaClass(major: 45, minor: 3)) == "application/java-vm")
        #expect(sniff(Programs.javaClass(major: 65, minor: 0xFFFF)) == "application/java-vm")
        #expect(sniff(Programs.machOUniversal) == "application/x-mach-binary")
        for count: UInt8 in [1, 30] {
            #expect(sniff([0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, count]) == "application/x-mach-binary")
        }
        #expect(sniff([0xCA, 0xFE, 0xBA, 0xBF, 0, 0, 0, 2]) == "application/x-mach-binary")
        // Neither a plausible architecture count nor a class file's version, and a 64-bit universal header's
        // word is never a version.
        #expect(sniff([0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 31]) == nil)
        #expect(sniff([0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 0]) == nil)
        #expect(sniff([0xCA, 0xFE, 0xBA, 0xBF, 0, 0, 0, 52]) == nil)
        #expect(sniff([0xCA, 0xFE, 0xBA, 0xBE]) == nil)
    }

    /// `MZ` alone is a DOS program or two letters of text: the PE signature where `e_lfanew` points decides.
    @Test func aPortableExecutableNeedsItsSignatureWhereTheHeaderPoints() {
        var elsewhere = Programs.portableExecutable
        elsewhere[0x3C] = 0x50
        #expect(sniff(elsewhere) == nil)
        var pastTheEnd = Programs.portableExecutable
        pastTheEnd.replaceSubrange(0x3C..<0x40, with: [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(sniff(pastTheEnd) == nil)
        #expect(sniff(Array(Programs.portableExecutable.prefix(0x42))) == nil)
        #expect(sniff(Array("MZ is a pair of letters\n".utf8)) == "text/plain")
    }

    @Test func wasmAndDEXNeedTheirVersions() {
        #expect(sniff(Array(Programs.wasm.prefix(8))) == "application/wasm")
        #expect(sniff([0x00, 0x61, 0x73, 0x6D, 0x02, 0x00, 0x00, 0x00]) == nil)
        #expect(sniff(Array("dex\n039\0".utf8)) == "application/vnd.android.dex")
        #expect(sniff(Array("dex\nabc\0".utf8)) == nil)
    }

    /// `#!` followed by an interpreter's path is a script whatever the interpreter; a `#!` in prose is text.
    @Test func scriptsNameTheirInterpreter() {
        #expect(sniff(Array("#! /usr/bin/env python3\nprint(1)\n".utf8)) == "text/x-shellscript")
        #expect(sniff(Array("#!/bin/sh".utf8)) == "text/x-shellscript")
        #expect(sniff(Array("#!wow, what a day\n".utf8)) == "text/plain")
        #expect(Sniffer.resolve(sniffed: .text, declared: nil, fileName: "setup.sh") == .script)
    }

    /// Programs are reported by their type whatever the name or declaration says.
    @Test func bytesOutrankANameOrDeclarationThatSaysPicture() throws {
        let bytes = try Programs.compiled()
        let type = Sniffer.resolve(
            sniffed: Sniffer.sniff(bytes.prefix(Sniffer.prefixLength)), declared: "image/png",
            fileName: "a.png")
        #expect(type == .elf)
    }
}
