extension JSONValue {
    /// Refuses a key given twice among a request body's top-level members: the body is read by more than one
    /// reader (the request's fields, then the member holding the settings), which would not all keep the
    /// same one.
    ///
    /// - Throws: `400 invalid_request` naming the key.
    static func refuseRepeatedKeys(_ members: [(key: String, value: JSONValue)]) throws(VariantsError) {
        var seen: Set<String> = []
        for member in members where !seen.insert(member.key).inserted {
            throw VariantsError(.invalidRequest, "\(member.key): a key given twice")
        }
    }
}

extension Transform {
    /// Refuses a `POST /v1/render` body that gives a top-level key twice, as a job's body is refused: its
    /// fields and its `transforms` are read by different readers, which would not keep the same one.
    ///
    /// - Throws: `400 invalid_request` naming the key; nothing for a body that is not a JSON object, which
    ///   its readers refuse.
    public static func refuseRepeatedKeys(in body: some Collection<UInt8>) throws(VariantsError) {
        guard case .object(let members) = try? JSONValue(parsing: body) else { return }
        try JSONValue.refuseRepeatedKeys(members)
    }
}
