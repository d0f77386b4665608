import Foundation

/// A PNG written by a rasteriser: its size from the IHDR chunk, and whether it shows anything, from the
/// standard deviation of its pixels (`vips deviate`, libvips-tools, installed by scripts/setup.sh).
struct RasterCheck {
    let path: String
    let width: Int
    let height: Int

    init(_ path: String) throws {
        self.path = path
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        guard bytes.count > 24, bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A][...],
            bytes[12..<16] == Array("IHDR".utf8)[...]
        else { throw CocoaError(.fileReadCorruptFile) }
        func word(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        width = word(16)
        height = word(20)
    }

    /// A blank (one-colour) picture has a deviation of 0; a chart's bars and text give well over 10.
    func isNotBlank() throws -> Bool {
        guard let vips = Tools.find("vips") else { throw CocoaError(.executableNotLoadable) }
        let result = try Tools.output(vips, ["deviate", path])
        return (Double(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) > 10
    }
}
