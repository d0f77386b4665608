import Foundation
import Testing

@testable import Charts

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite struct SVGDocumentTests {
    @Test func textAndTitlesSurviveAnXMLParserWhateverTheyHold() throws {
        let hostile = "a <b> & \"c\" 'd' \u{1}"
        var document = SVGDocument(width: 100, height: 50)
        document.text(hostile, x: 1, y: 2)
        document.rect(x: 0, y: 0, width: 10, height: 10, fill: "#fff", title: hostile)
        let parsed = try SVGOutline(document.rendered(title: hostile))
        #expect(parsed.root == "svg")
        #expect(parsed.texts["text"] == ["a <b> & \"c\" 'd' \u{FFFD}"])
        #expect(parsed.texts["title"] == ["a <b> & \"c\" 'd' \u{FFFD}", "a <b> & \"c\" 'd' \u{FFFD}"])
        #expect(parsed.attributes.first?["width"] == "100")
    }

    @Test func coordinatesHaveAtMostOneDecimal() {
        #expect(SVGDocument.number(12) == "12")
        #expect(SVGDocument.number(12.46) == "12.5")
        #expect(SVGDocument.number(-3.24) == "-3.2")
        #expect(SVGDocument.number(0.04) == "0")
    }
}

/// An SVG text read back with Foundation's XMLParser: the root, every element's attributes in document
/// order, and the text inside each element, by name. Parsing fails on anything that is not well-formed XML.
struct SVGOutline {
    var root = ""
    var elements: [String] = []
    var attributes: [[String: String]] = []
    var texts: [String: [String]] = [:]

    init(_ text: String) throws {
        let delegate = Collector()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = delegate
        guard parser.parse() else {
            throw parser.parserError ?? CocoaError(.fileReadCorruptFile)
        }
        root = delegate.elements.first ?? ""
        elements = delegate.elements
        attributes = delegate.attributes
        texts = delegate.texts
    }

    func count(_ name: String) -> Int { elements.filter { $0 == name }.count }

    private final class Collector: NSObject, XMLParserDelegate {
        var elements: [String] = []
        var attributes: [[String: String]] = []
        var texts: [String: [String]] = [:]
        private var open: [(name: String, text: String)] = []

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String]
        ) {
            elements.append(name)
            self.attributes.append(attributes)
            open.append((name, ""))
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if !open.isEmpty { open[open.count - 1].text += string }
        }

        func parser(
            _ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?
        ) {
            let element = open.removeLast()
            if !element.text.isEmpty { texts[name, default: []].append(element.text) }
        }
    }
}
