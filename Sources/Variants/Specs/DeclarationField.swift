/// One value of a bucket declaration with the path that leads to it: the single reader every rule uses, so
/// each error names the field, what was expected and what was written in the same words.
struct DeclarationField {
    /// The dotted path (`variants.thumb.quality`); empty for the whole document.
    let path: String
    let value: JSONValue

    /// An `invalid_transform` error about this field, quoting its value.
    func failure(expected: String) -> VariantsError {
        failure(expected: expected, got: value.quoted())
    }

    func failure(expected: String, got actual: String) -> VariantsError {
        .invalidTransform(path: path.isEmpty ? "declaration" : path, expected: expected, got: actual)
    }

    func child(_ key: String) -> String { path.isEmpty ? key : path + "." + key }

    // MARK: - Scalars

    func string() throws(VariantsError) -> String {
        guard case .string(let string) = value else { throw failure(expected: "string") }
        return string
    }

    func bool() throws(VariantsError) -> Bool {
        guard case .bool(let bool) = value else { throw failure(expected: "true or false") }
        return bool
    }

    /// A whole number in `range`; `2.0` and `2e0` count, as they do in JavaScript.
    ///
    /// With `clamping`, an integer above the range reads as its upper bound rather than failing.
    func integer(in range: ClosedRange<Int>, clamping: Bool = false) throws(VariantsError) -> Int {
        let expected =
            clamping || range.upperBound == .max
            ? "integer ≥ \(range.lowerBound)" : "integer in \(range.lowerBound)…\(range.upperBound)"
        guard case .number(let literal) = value, let double = Double(literal), double.isFinite,
            double.rounded(.towardZero) == double
        else { throw failure(expected: expected) }
        if clamping, double > Double(range.upperBound) { return range.upperBound }
        guard let integer = Int(literal) ?? Int(exactly: double), range.contains(integer) else {
            throw failure(expected: expected)
        }
        return integer
    }

    /// A finite number in `range`; negative zero reads as zero so equal settings stay equal.
    func number(in range: ClosedRange<Int>) throws(VariantsError) -> Double {
        let bounds = Double(range.lowerBound)...Double(range.upperBound)
        guard case .number(let literal) = value, let double = Double(literal), bounds.contains(double) else {
            throw failure(expected: "number in \(range.lowerBound)…\(range.upperBound)")
        }
        return double + 0
    }

    /// One of a closed vocabulary, spelled as its raw value; `aliases` adds accepted spellings.
    func oneOf<Vocabulary: CaseIterable & RawRepresentable<String>>(
        _: Vocabulary.Type, aliases: [String: Vocabulary] = [:]
    ) throws(VariantsError) -> Vocabulary {
        let expected = "one of " + Vocabulary.allCases.map(\.rawValue).joined(separator: ", ")
        guard case .string(let string) = value,
            let word = Vocabulary(rawValue: string) ?? aliases[string]
        else { throw failure(expected: expected) }
        return word
    }

    // MARK: - Containers

    func elements() throws(VariantsError) -> [DeclarationField] {
        guard case .array(let elements) = value else { throw failure(expected: "array") }
        return elements.enumerated().map { index, element in
            DeclarationField(path: "\(path)[\(index)]", value: element)
        }
    }

    /// The members of an object in document order; a key given twice is an error.
    func members() throws(VariantsError) -> [(key: String, field: DeclarationField)] {
        guard case .object(let members) = value else { throw failure(expected: "object") }
        var seen: Set<String> = []
        var fields: [(key: String, field: DeclarationField)] = []
        for (key, value) in members {
            let field = DeclarationField(path: child(key), value: value)
            guard seen.insert(key).inserted else {
                throw field.failure(expected: "each key once", got: "a second \(JSONValue.quote(key))")
            }
            fields.append((key, field))
        }
        return fields
    }

    /// An object whose keys must all be among `known`; `null` members read as absent.
    func object(knownKeys known: [String]) throws(VariantsError) -> DeclarationObject {
        var fields: [String: DeclarationField] = [:]
        for (key, field) in try members() {
            guard known.contains(key) else {
                let rule = "one of the keys " + known.joined(separator: ", ")
                throw field.failure(expected: rule, got: "unknown key")
            }
            if case .null = field.value { continue }
            fields[key] = field
        }
        return DeclarationObject(field: self, fields: fields)
    }
}

/// The known members of a declaration object, looked up by key.
struct DeclarationObject {
    /// The object itself.
    let field: DeclarationField
    let fields: [String: DeclarationField]

    subscript(key: String) -> DeclarationField? { fields[key] }

    /// The member `key`, which must be there: what it must be is `expected`.
    func required(_ key: String, expected: String) throws(VariantsError) -> DeclarationField {
        guard let member = fields[key] else {
            throw .invalidTransform(path: field.child(key), expected: expected, got: "nothing")
        }
        return member
    }
}
