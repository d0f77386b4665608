/// Where and why declaration text is not JSON (RFC 8259).
struct JSONSyntaxError: Error, Equatable {
    /// The byte offset of the first character that does not fit the grammar.
    var offset: Int
    /// What was found there, in words: `"}"`, `end of input`, `invalid UTF-8`.
    var found: String
}

extension JSONValue {
    /// Nesting deeper than this is refused, so hostile text cannot exhaust the stack; declarations need 4.
    static let maximumDepth = 32

    /// Reads one JSON value that spans all of `bytes` (surrounding whitespace aside).
    init(parsing bytes: some Collection<UInt8>) throws(JSONSyntaxError) {
        var reader = JSONReader(bytes: Array(bytes))
        self = try reader.value(depth: 0)
        reader.skipWhitespace()
        guard reader.isAtEnd else { throw reader.unexpected() }
    }
}

/// A cursor over UTF-8 bytes with one method per production of the JSON grammar.
private struct JSONReader {
    let bytes: [UInt8]
    var offset = 0

    var isAtEnd: Bool { offset >= bytes.count }

    mutating func skipWhitespace() {
        while !isAtEnd, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[offset]) { offset += 1 }
    }

    func unexpected() -> JSONSyntaxError {
        guard !isAtEnd else { return JSONSyntaxError(offset: offset, found: "end of input") }
        let byte = bytes[offset]
        let isPrintable = (0x21..<0x7F).contains(byte)
        let found = isPrintable ? JSONValue.quote(String(UnicodeScalar(byte))) : "byte \(byte)"
        return JSONSyntaxError(offset: offset, found: found)
    }

    mutating func expect(_ byte: UInt8) throws(JSONSyntaxError) {
        guard !isAtEnd, bytes[offset] == byte else { throw unexpected() }
        offset += 1
    }

    mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        skipWhitespace()
        guard !isAtEnd else { throw unexpected() }
        switch bytes[offset] {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        default: return .number(try number())
        }
    }

    mutating func literal(_ word: String) throws(JSONSyntaxError) {
        for byte in word.utf8 { try expect(byte) }
    }

    mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        try checkDepth(depth)
        offset += 1
        var members: [(key: String, value: JSONValue)] = []
        skipWhitespace()
        if !isAtEnd, bytes[offset] == UInt8(ascii: "}") {
            offset += 1
            return .object(members)
        }
        repeat {
            skipWhitespace()
            guard !isAtEnd, bytes[offset] == UInt8(ascii: "\"") else { throw unexpected() }
            let key = try string()
            skipWhitespace()
            try expect(UInt8(ascii: ":"))
            members.append((key, try value(depth: depth)))
            skipWhitespace()
        } while try separator(closing: UInt8(ascii: "}"))
        return .object(members)
    }

    mutating func array(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        try checkDepth(depth)
        offset += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if !isAtEnd, bytes[offset] == UInt8(ascii: "]") {
            offset += 1
            return .array(elements)
        }
        repeat {
            elements.append(try value(depth: depth))
            skipWhitespace()
        } while try separator(closing: UInt8(ascii: "]"))
        return .array(elements)
    }

    func checkDepth(_ depth: Int) throws(JSONSyntaxError) {
        guard depth <= JSONValue.maximumDepth else {
            throw JSONSyntaxError(offset: offset, found: "nesting deeper than \(JSONValue.maximumDepth)")
        }
    }

    /// Consumes `,` (more to come) or the closing bracket (done).
    mutating func separator(closing: UInt8) throws(JSONSyntaxError) -> Bool {
        guard !isAtEnd else { throw unexpected() }
        if bytes[offset] == UInt8(ascii: ",") {
            offset += 1
            return true
        }
        try expect(closing)
        return false
    }

    mutating func number() throws(JSONSyntaxError) -> String {
        let start = offset
        skip(UInt8(ascii: "-"))
        if !skip(UInt8(ascii: "0")) { try digits() }
        if skip(UInt8(ascii: ".")) { try digits() }
        if skip(UInt8(ascii: "e")) || skip(UInt8(ascii: "E")) {
            if !skip(UInt8(ascii: "+")) { skip(UInt8(ascii: "-")) }
            try digits()
        }
        return String(decoding: bytes[start..<offset], as: UTF8.self)
    }

    @discardableResult
    mutating func skip(_ byte: UInt8) -> Bool {
        guard !isAtEnd, bytes[offset] == byte else { return false }
        offset += 1
        return true
    }

    /// One or more decimal digits.
    mutating func digits() throws(JSONSyntaxError) {
        let start = offset
        while !isAtEnd, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[offset]) { offset += 1 }
        guard offset > start else { throw unexpected() }
    }

    mutating func string() throws(JSONSyntaxError) -> String {
        let start = offset
        offset += 1
        var utf8: [UInt8] = []
        while true {
            guard !isAtEnd, bytes[offset] >= 0x20 else { throw unexpected() }
            let byte = bytes[offset]
            offset += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let string = String(validating: utf8, as: UTF8.self) else {
                    throw JSONSyntaxError(offset: start, found: "invalid UTF-8")
                }
                return string
            case UInt8(ascii: "\\"): try escape(into: &utf8)
            default: utf8.append(byte)
            }
        }
    }

    /// `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t` and the byte each stands for.
    static let simpleEscapes: [UInt8: UInt8] = [
        UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F, UInt8(ascii: "b"): 0x08,
        UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
    ]

    mutating func escape(into utf8: inout [UInt8]) throws(JSONSyntaxError) {
        guard !isAtEnd else { throw unexpected() }
        if let replacement = Self.simpleEscapes[bytes[offset]] {
            offset += 1
            utf8.append(replacement)
            return
        }
        try expect(UInt8(ascii: "u"))
        let escapeStart = offset - 2
        var scalar = try hexQuad()
        let unpaired = JSONSyntaxError(offset: escapeStart, found: "unpaired surrogate")
        if (0xD800..<0xDC00).contains(scalar) {
            guard skip(UInt8(ascii: "\\")), skip(UInt8(ascii: "u")) else { throw unpaired }
            let low = try hexQuad()
            guard (0xDC00..<0xE000).contains(low) else { throw unpaired }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let unicode = UnicodeScalar(scalar) else { throw unpaired }
        utf8.append(contentsOf: String(unicode).utf8)
    }

    mutating func hexQuad() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard !isAtEnd, let digit = Character(UnicodeScalar(bytes[offset])).hexDigitValue else {
                throw unexpected()
            }
            value = value << 4 | UInt32(digit)
            offset += 1
        }
        return value
    }
}
