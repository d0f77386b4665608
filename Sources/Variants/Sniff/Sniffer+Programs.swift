/// Programs told from their first bytes, so a bucket can refuse them whatever they are named or declared as.
extension Sniffer {
    /// The number of architectures a universal Mach-O file plausibly holds. Java class files begin with the same
    /// `CAFEBABE`, followed by a minor and a major version whose major is at least 45, so the big-endian word
    /// after the magic is 45 or more for every class file.
    static let fatArchitectures: ClosedRange<UInt32> = 1...30

    /// The program the bytes are, or nil when they are not one.
    static func programType(_ bytes: ArraySlice<UInt8>) -> MediaType? {
        let bytes = Array(bytes)
        func word(at offset: Int, bigEndian: Bool) -> UInt32? {
            guard offset >= 0, offset + 4 <= bytes.count else { return nil }
            let four = bytes[offset..<offset + 4].map(UInt32.init)
            let ordered = bigEndian ? four : four.reversed()
            return ordered.reduce(0) { $0 << 8 | $1 }
        }
        if bytes.starts(with: [0x7F, 0x45, 0x4C, 0x46]) { return .elf }
        // A DOS stub whose `e_lfanew` points at the PE signature (within the prefix read).
        if bytes.starts(with: Array("MZ".utf8)), let header = word(at: 0x3C, bigEndian: false),
            bytes.dropFirst(Int(header)).starts(with: Array("PE\0\0".utf8))
        {
            return .portableExecutable
        }
        guard let magic = word(at: 0, bigEndian: true) else { return script(bytes) }
        switch magic {
        case 0xFEED_FACE, 0xFEED_FACF, 0xCEFA_EDFE, 0xCFFA_EDFE: return .machO
        case 0xCAFE_BABE, 0xCAFE_BABF:
            guard let next = word(at: 4, bigEndian: true) else { return nil }
            if fatArchitectures.contains(next) { return .machO }
            if magic == 0xCAFE_BABE, next & 0xFFFF >= 45 { return .javaClass }
            return nil
        default: break
        }
        if bytes.starts(with: [0, 0x61, 0x73, 0x6D, 1, 0, 0, 0]) { return .wasm }
        if bytes.count >= 8, bytes.starts(with: Array("dex\n".utf8)), bytes[7] == 0,
            bytes[4..<7].allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        {
            return .dex
        }
        return script(bytes)
    }

    /// `#!` and an interpreter's path (`#!/bin/sh`, `#! /usr/bin/env python3`): a `#!` followed by other text is
    /// prose as often as not.
    private static func script(_ bytes: [UInt8]) -> MediaType? {
        guard bytes.starts(with: Array("#!".utf8)) else { return nil }
        let path = bytes.dropFirst(2).drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        return path.first == UInt8(ascii: "/") ? .script : nil
    }
}
