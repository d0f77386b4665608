import Foundation

/// A watermark crosses to a decoder child with its file's bytes (base64), each setting read back under the
/// declaration's rule and the bytes checked again, so the child never opens a file.
extension Watermark: Codable {
    private enum CodingKeys: String, CodingKey, CaseIterable {
        case name, file, position, margin, opacity, width, png
    }

    public init(from decoder: any Decoder) throws {
        self = try DeclarationField.decoding(decoder, Self.init(wire:))
    }

    /// Also how a variant's line reads the watermark it carries.
    init(wire field: DeclarationField) throws(VariantsError) {
        let settings = try field.object(knownKeys: CodingKeys.allCases.map(\.rawValue))
        func member(_ key: CodingKeys) throws(VariantsError) -> DeclarationField {
            try settings.required(key.rawValue, expected: "a value")
        }
        let png = try member(.png)
        guard let bytes = Data(base64Encoded: try png.string()).map(Array.init) else {
            throw png.failure(expected: "base64")
        }
        try self.init(
            name: try member(.name).variantName(), file: try member(.file).watermarkFile(),
            position: try member(.position).watermarkPosition(),
            margin: try member(.margin).watermarkMargin(),
            opacity: try member(.opacity).opacity(), width: try member(.width).watermarkWidth(), png: bytes,
            fail: { png.failure(expected: $0, got: "other bytes") })
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(file, forKey: .file)
        try container.encode(position, forKey: .position)
        try container.encode(margin, forKey: .margin)
        try container.encode(opacity, forKey: .opacity)
        try container.encode(width, forKey: .width)
        try container.encode(Data(png).base64EncodedString(), forKey: .png)
    }
}
