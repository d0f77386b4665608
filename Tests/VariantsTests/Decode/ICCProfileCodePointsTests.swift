import Testing

@testable import Variants

/// The colour encoding a profile states: its `cicp` tag, or libjxl's name for it in the description. Profiles
/// are built here tag by tag; text that is not libjxl's name, and tags that run past their end, state nothing.
@Suite struct ICCProfileCodePointsTests {
    private static let bt2020 = [0.3127, 0.3290, 0.708, 0.292, 0.170, 0.797, 0.131, 0.046]

    @Test func cicpTagStatesItsCodePoints() {
        let cicp = Array("cicp".utf8) + [0, 0, 0, 0, 9, 16, 0, 1]
        #expect(
            Self.profile(["cicp": cicp])?.codePoints
                == .init(primaries: 9, transfer: 16, chromaticities: Self.bt2020))
    }

    @Test func libjxlDescriptionsNameTheirEncoding() {
        #expect(
            Self.profile(["desc": Self.mluc("RGB_D65_202_Rel_PeQ")])?.codePoints
                == .init(primaries: 9, transfer: 16, chromaticities: Self.bt2020))
        #expect(
            Self.profile(["desc": Self.ascii("RGB_D65_202_Per_HLG")])?.codePoints
                == .init(primaries: 9, transfer: 18, chromaticities: Self.bt2020))
        let custom = "RGB_0.3127;0.329_0.708;0.292;0.17;0.797;0.131;0.046_Rel_PeQ"
        #expect(
            Self.profile(["desc": Self.mluc(custom)])?.codePoints
                == .init(primaries: 0, transfer: 16, chromaticities: Self.bt2020))
        #expect(
            Self.profile(["desc": Self.mluc("Gra_D65_Rel_HLG")], space: "GRAY")?.codePoints?.transfer == 18)
    }

    @Test func otherTextAndBrokenTagsStateNothing() {
        for text in [
            "sRGB IEC61966-2.1", "RGB_D65_202_Rel", "RGB_D65_202_Rel_PeQ_x", "RGB_D65_Cst_Rel_PeQ", "",
        ] {
            #expect(Self.profile(["desc": Self.mluc(text)])?.codePoints == nil, "\(text)")
        }
        // A record whose text runs past the tag, and a tag cut inside its header.
        var cut = Self.mluc("RGB_D65_202_Rel_PeQ")
        cut[20..<24] = [0, 0, 1, 0]
        #expect(Self.profile(["desc": cut])?.codePoints == nil)
        for length in [14, 20] {
            #expect(
                Self.profile(["desc": Array(Self.mluc("RGB_D65_202_Rel_PeQ").prefix(length))])?.codePoints
                    == nil)
        }
        #expect(Self.profile(["cicp": Array("cicp".utf8) + [0, 0]])?.codePoints == nil)
        #expect(Self.profile(["desc": Self.mluc("RGB_D65_202_Rel_PeQ")], space: "CMYK")?.codePoints == nil)
    }

    // MARK: - Helpers

    /// A display profile of colour space `space` holding `tags`.
    private static func profile(_ tags: [String: [UInt8]], space: String = "RGB ") -> ICCProfile? {
        var header = [UInt8](repeating: 0, count: 128)
        header.replaceSubrange(12..<16, with: Array("mntr".utf8))
        header.replaceSubrange(16..<20, with: Array(space.utf8))
        header.replaceSubrange(36..<40, with: Array("acsp".utf8))
        var table = be32(tags.count)
        var data: [UInt8] = []
        let start = 132 + tags.count * 12
        for (name, bytes) in tags.sorted(by: { $0.key < $1.key }) {
            table += Array(name.utf8) + be32(start + data.count) + be32(bytes.count)
            data += bytes
        }
        return ICCProfile(header + table + data)
    }

    /// An ICC 4 `mluc` tag with one English record.
    private static func mluc(_ text: String) -> [UInt8] {
        let units = text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        return Array("mluc".utf8) + be32(0) + be32(1) + be32(12) + Array("enUS".utf8) + be32(units.count)
            + be32(28) + units
    }

    /// An ICC 2 `desc` tag: its ASCII text, NUL-terminated.
    private static func ascii(_ text: String) -> [UInt8] {
        Array("desc".utf8) + be32(0) + be32(text.utf8.count + 1) + Array(text.utf8) + [0]
    }

    private static func be32(_ value: Int) -> [UInt8] {
        [24, 16, 8, 0].map { UInt8((value >> $0) & 0xFF) }
    }
}
