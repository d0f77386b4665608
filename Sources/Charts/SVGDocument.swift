/// An SVG document built as text, element by element in drawing order: the only place that writes SVG
/// syntax, so every attribute value and every text is escaped in one place.
public struct SVGDocument: Sendable {
    /// Where a text is anchored horizontally.
    public enum Anchor: String, Sendable {
        case start, middle, end
    }

    public let width: Double
    public let height: Double
    private var elements: [String] = []

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// A filled rectangle; `title` becomes its tooltip in a browser.
    public mutating func rect(
        x: Double, y: Double, width: Double, height: Double, fill: String, opacity: Double = 1,
        stroke: String? = nil, title: String? = nil
    ) {
        var attributes = [
            ("x", Self.number(x)), ("y", Self.number(y)), ("width", Self.number(width)),
            ("height", Self.number(height)), ("fill", fill),
        ]
        if opacity < 1 { attributes.append(("fill-opacity", Self.number(opacity))) }
        if let stroke { attributes.append(("stroke", stroke)) }
        element("rect", attributes, title.map { "<title>\(MarkupText.escaped($0))</title>" })
    }

    public mutating func line(
        x1: Double, y1: Double, x2: Double, y2: Double, stroke: String, strokeWidth: Double = 1
    ) {
        element(
            "line",
            [
                ("x1", Self.number(x1)), ("y1", Self.number(y1)), ("x2", Self.number(x2)),
                ("y2", Self.number(y2)), ("stroke", stroke), ("stroke-width", Self.number(strokeWidth)),
            ], nil)
    }

    /// A line of text at a baseline point; `rotation` in degrees turns it about that point.
    public mutating func text(
        _ content: String, x: Double, y: Double, size: Double = 12, anchor: Anchor = .start,
        bold: Bool = false, fill: String = "#222", rotation: Double? = nil
    ) {
        var attributes = [
            ("x", Self.number(x)), ("y", Self.number(y)), ("font-size", Self.number(size)),
            ("text-anchor", anchor.rawValue), ("fill", fill),
        ]
        if bold { attributes.append(("font-weight", "bold")) }
        if let rotation {
            attributes.append(
                ("transform", "rotate(\(Self.number(rotation)) \(Self.number(x)) \(Self.number(y)))"))
        }
        element("text", attributes, MarkupText.escaped(content))
    }

    /// The whole document, with a `<title>` for screen readers and file browsers.
    public func rendered(title: String) -> String {
        let size = "width=\"\(Self.number(width))\" height=\"\(Self.number(height))\""
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" \(size) viewBox="0 0 \(Self.number(width)) \
            \(Self.number(height))" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">
            <title>\(MarkupText.escaped(title))</title>
            \(elements.joined(separator: "\n"))
            </svg>

            """
    }

    private mutating func element(_ name: String, _ attributes: [(String, String)], _ content: String?) {
        let list = attributes.map { " \($0.0)=\"\(MarkupText.escaped($0.1))\"" }.joined()
        elements.append(content.map { "<\(name)\(list)>\($0)</\(name)>" } ?? "<\(name)\(list)/>")
    }

    /// A coordinate with at most one decimal, without a locale: `12`, `12.5`, `-3.2`.
    static func number(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        let sign = tenths < 0 ? "-" : ""
        let magnitude = abs(tenths)
        return magnitude % 10 == 0 ? "\(sign)\(magnitude / 10)" : "\(sign)\(magnitude / 10).\(magnitude % 10)"
    }
}
