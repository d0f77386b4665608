import Testing

@testable import Variants

/// A bucket's `transforms` and `widths`: read once into a scope that cannot hold a bad width list, written
/// back as declared, and the refusals they make of on-demand transforms.
@Suite struct TransformScopeTests {
    private func scope(_ fields: String) throws(VariantsError) -> TransformScope {
        try BucketDeclaration(parsing: #"{"name": "b", \#(fields)}"#.utf8).transforms
    }

    private func failure(_ fields: String) -> VariantsError? {
        do {
            _ = try scope(fields)
            return nil
        } catch {
            return error
        }
    }

    private func spec(_ query: String) throws -> VariantSpec {
        let pairs = query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            return (name: parts[0], value: parts[1])
        }
        return try Transform(query: pairs, accept: nil).spec
    }

    @Test func readsEachSettingAndDefaultsToAny() throws {
        #expect(try BucketDeclaration(parsing: #"{"name": "b"}"#.utf8).transforms == .any)
        #expect(try scope(#""transforms": "any""#) == .any)
        #expect(try scope(#""transforms": null, "widths": null"#) == .any)
        #expect(try scope(#""transforms": "declared""#).rule == .declaredOnly)
        let widths = try scope(#""widths": [1200, 200, 600, 200.0, 4096]"#)
        #expect(widths.widths == [200, 600, 1200, 4096])
        #expect(try scope(#""transforms": "any", "widths": [64]"#).widths == [64])
    }

    @Test(arguments: [
        (#""transforms": "none""#, "transforms: expected one of any, declared, got \"none\""),
        (#""transforms": true"#, "transforms: expected one of any, declared, got true"),
        (#""widths": []"#, "widths: expected 1…50 widths, got 0"),
        (#""widths": 600"#, "widths: expected array, got 600"),
        (#""widths": [600, 0]"#, "widths[1]: expected integer in 1…4096, got 0"),
        (#""widths": [5000]"#, "widths[0]: expected integer in 1…4096, got 5000"),
        (#""widths": ["600"]"#, "widths[0]: expected integer in 1…4096, got \"600\""),
        (
            #""transforms": "declared", "widths": [600]"#,
            "widths: expected no widths beside \"transforms\": \"declared\", got [600]"
        ),
    ])
    func refusesSetting(fields: String, message: String) {
        #expect(failure(fields) == VariantsError(.invalidTransform, message))
    }

    @Test func refusesMoreWidthsThanTransformsAPictureCanHave() throws {
        let widths = (1...51).map(String.init).joined(separator: ",")
        #expect(
            failure(#""widths": [\#(widths)]"#)
                == VariantsError(.invalidTransform, "widths: expected 1…50 widths, got 51"))
        #expect(
            try scope(#""widths": [\#((1...50).map(String.init).joined(separator: ","))]"#).widths?.count
                == 50)
    }

    @Test(arguments: [#""transforms": "declared""#, #""widths": [600, 200]"#, #""transforms": "any""#])
    func declarationTextKeepsTheScope(fields: String) throws {
        let bucket = try BucketDeclaration(parsing: #"{"name": "b", \#(fields)}"#.utf8)
        #expect(try BucketDeclaration(parsing: bucket.declarationJSON.utf8) == bucket)
    }

    @Test func declaredOnlyRefusesEveryTransform() throws {
        let declared = try scope(#""transforms": "declared""#)
        let refusal = try #require(throws: VariantsError.self) { try declared.admitOptions(bucket: "b") }
        #expect(refusal.code == .transformsDeclaredOnly && refusal.statusCode == 403)
        #expect(refusal.message.contains("variant="))
        #expect(throws: refusal) { try declared.admit(try spec("width=600"), bucket: "b") }
    }

    @Test func widthsTakeOnlyTheirWidths() throws {
        let widths = try scope(#""widths": [200, 600]"#)
        try widths.admitOptions(bucket: "b")
        try widths.admit(try spec("width=600&format=webp"), bucket: "b")
        try widths.admit(try spec("width=200&height=900&fit=cover"), bucket: "b")
        for query in ["width=601", "height=600", "format=webp"] {
            let refusal = try #require(throws: VariantsError.self, "\(query)") {
                try widths.admit(try spec(query), bucket: "b")
            }
            #expect(refusal.code == .widthNotDeclared && refusal.statusCode == 403, "\(query)")
            #expect(refusal.message.contains("200, 600"), "\(query)")
        }
    }

    @Test func anyTakesEveryTransform() throws {
        try TransformScope.any.admitOptions(bucket: "b")
        try TransformScope.any.admit(try spec("height=17"), bucket: "b")
    }
}
