import Foundation

/// The XMP rights statement, read from a source's packet and written as a packet of its own.
extension RightsMetadata {
    /// The `rdf:li` items of the packet's `<dc:rights>`, with their `xml:lang` (`x-default` when absent or
    /// not a language tag): at most `maximumLanguages`, each text at most `maximumValueBytes` once its
    /// character references are read. The packet is scanned, not parsed: text is taken only between an
    /// item's tags, so nothing of the packet's markup can reach the packet written.
    static func xmpRights(_ packet: [UInt8]) -> [Statement] {
        let text = String(decoding: packet, as: UTF8.self)
        guard let open = text.range(of: "<dc:rights>"),
            let close = text.range(of: "</dc:rights>", range: open.upperBound..<text.endIndex)
        else { return [] }
        var body = text[open.upperBound..<close.lowerBound]
        var statements: [Statement] = []
        while statements.count < maximumLanguages, let item = body.range(of: "<rdf:li") {
            guard let tagEnd = body.range(of: ">", range: item.upperBound..<body.endIndex),
                let itemEnd = body.range(of: "</rdf:li>", range: tagEnd.upperBound..<body.endIndex)
            else { break }
            let attributes = body[item.upperBound..<tagEnd.lowerBound]
            let content = body[tagEnd.upperBound..<itemEnd.lowerBound]
            if !attributes.hasSuffix("/"), !content.contains("<"), let words = unescaped(content),
                !words.isEmpty, words.utf8.count <= maximumValueBytes
            {
                statements.append(Statement(language: language(in: attributes), text: words))
            }
            body = body[itemEnd.upperBound...]
        }
        return statements
    }

    /// The `xml:lang` attribute's value when it is a language tag (letters, digits and `-`, at most 35).
    private static func language(in attributes: Substring) -> String {
        for quote in ["\"", "'"] {
            guard let start = attributes.range(of: "xml:lang=" + quote),
                let end = attributes.range(of: quote, range: start.upperBound..<attributes.endIndex)
            else { continue }
            let tag = attributes[start.upperBound..<end.lowerBound]
            if (1...35).contains(tag.count),
                tag.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
            {
                return String(tag)
            }
        }
        return "x-default"
    }

    /// Text with XML's five named references and numeric references read; nil when one is malformed.
    private static func unescaped(_ text: Substring) -> String? {
        var result = ""
        var rest = text
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            guard let semicolon = rest[ampersand...].firstIndex(of: ";") else { return nil }
            let name = rest[rest.index(after: ampersand)..<semicolon]
            let named: [Substring: String] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"]
            if let character = named[name] {
                result += character
            } else if name.hasPrefix("#x"), let value = UInt32(name.dropFirst(2), radix: 16),
                let scalar = Unicode.Scalar(value)
            {
                result.unicodeScalars.append(scalar)
            } else if name.hasPrefix("#"), let value = UInt32(name.dropFirst(), radix: 10),
                let scalar = Unicode.Scalar(value)
            {
                result.unicodeScalars.append(scalar)
            } else {
                return nil
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return result + rest
    }

    /// An XMP packet whose one property is `dc:rights`, each statement escaped: at most 8 statements of
    /// 1 KiB, which escaped stay well inside the 64 KiB a JPEG segment holds.
    var xmpPacket: [UInt8] {
        // Control characters XML does not allow are left out.
        func escaped(_ text: String) -> String {
            var result = ""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "&": result += "&amp;"
                case "<": result += "&lt;"
                case ">": result += "&gt;"
                case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
                case _ where scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value): continue
                default: result.unicodeScalars.append(scalar)
                }
            }
            return result
        }
        let items = rights.map {
            #"<rdf:li xml:lang=""# + $0.language + #"">"# + escaped($0.text) + "</rdf:li>"
        }
        let packet =
            "<?xpacket begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>"
            + #"<x:xmpmeta xmlns:x="adobe:ns:meta/">"#
            + #"<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">"#
            + #"<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">"#
            + "<dc:rights><rdf:Alt>" + items.joined() + "</rdf:Alt></dc:rights>"
            + "</rdf:Description></rdf:RDF></x:xmpmeta>"
            + #"<?xpacket end="r"?>"#
        return Array(packet.utf8)
    }
}
