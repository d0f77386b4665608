/// An sRGB colour with alpha, 8 bits a channel: the letterbox of `contain` and what alpha is flattened onto.
public struct Colour: Sendable, Equatable, Hashable, Encodable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    /// 255 is opaque. JPEG output ignores it, since it has no alpha channel to keep it in.
    public var alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// As a decoder child's job line writes it: `{"red", "green", "blue", "alpha"}`.
    init(wire field: DeclarationField) throws(VariantsError) {
        let channels = try field.object(knownKeys: ["red", "green", "blue", "alpha"])
        func channel(_ key: String) throws(VariantsError) -> UInt8 {
            try channels.required(key, expected: "integer in 0…255").channel()
        }
        self.init(
            red: try channel("red"), green: try channel("green"), blue: try channel("blue"),
            alpha: try channel("alpha"))
    }

    /// The default background, as in sharp's `flatten`.
    public static let white = Colour(red: 255, green: 255, blue: 255)

    /// `#rrggbbaa` in lower case: one spelling per colour, for the canonical variant JSON.
    public var hexString: String {
        "#" + [red, green, blue, alpha].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
