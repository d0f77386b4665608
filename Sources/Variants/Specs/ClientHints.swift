import Foundation

/// What a browser's request headers say about where a picture will show, read for a transform's `width=auto`
/// and `dpr=auto`, and its wish to save data: the values as sent, checked only when an option reads them.
public struct ClientHints: Sendable, Equatable {
    /// `Sec-CH-Width`: the width the picture is laid out at, in device pixels (an `<img>` with `sizes`).
    public var width: String?
    /// `Sec-CH-Viewport-Width`: the viewport's width, in CSS pixels.
    public var viewportWidth: String?
    /// `Sec-CH-DPR`: device pixels per CSS pixel.
    public var devicePixelRatio: String?
    /// `Save-Data: on`: the transform's quality is lowered one step (`VariantSpec.savingData`).
    public var saveData: Bool

    public init(
        width: String? = nil, viewportWidth: String? = nil, devicePixelRatio: String? = nil,
        saveData: Bool = false
    ) {
        self.width = width
        self.viewportWidth = viewportWidth
        self.devicePixelRatio = devicePixelRatio
        self.saveData = saveData
    }

    /// The headers the hints come from, as `Vary` names them.
    public static let widthHeaders = ["Sec-CH-Width", "Sec-CH-Viewport-Width"]
    public static let ratioHeader = "Sec-CH-DPR"
    public static let saveDataHeader = "Save-Data"
    /// What an answer sends so that a page's later requests carry the hints: `Accept-CH`'s value.
    public static let accepted = "Sec-CH-DPR, Sec-CH-Width, Sec-CH-Viewport-Width"

    /// Whether a `Save-Data` header's value asks to save data (`on`, in any case).
    public static func savesData(_ header: String?) -> Bool {
        header.map { $0.trimmingCharacters(in: .whitespaces).lowercased() == "on" } ?? false
    }

    /// A hint's value as a positive finite number, nil when absent or malformed.
    static func number(_ text: String?) -> Double? {
        guard let text, let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite,
            value > 0
        else { return nil }
        return value
    }
}
