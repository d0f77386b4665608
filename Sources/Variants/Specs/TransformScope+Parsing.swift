extension DeclarationObject {
    /// The bucket's `transforms` (`"any"` or `"declared"`) and `widths` (1…50 distinct integers in
    /// 1…`maximumSide`, kept sorted); a bucket sets at most one of them, as `declared` leaves no width to
    /// take.
    func transformScope() throws(VariantsError) -> TransformScope {
        let setting = try self["transforms"]?.oneOf(TransformScope.Setting.self) ?? .any
        guard let field = self["widths"] else {
            return TransformScope(rule: setting == .declared ? .declaredOnly : .any)
        }
        guard setting == .any else {
            throw field.failure(expected: "no widths beside \"transforms\": \"declared\"")
        }
        let elements = try field.elements()
        let most = TransformScope.maximumWidths
        guard (1...most).contains(elements.count) else {
            throw field.failure(expected: "1…\(most) widths", got: "\(elements.count)")
        }
        var widths: Set<Int> = []
        for element in elements {
            widths.insert(try element.integer(in: 1...VariantSpec.maximumSide))
        }
        return TransformScope(rule: .widths(widths.sorted()))
    }
}
