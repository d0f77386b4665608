/// libFuzzer entry for the bucket declaration parser and the transform options read by the same rules: any
/// text is either a valid bucket (or transform) or a typed error; every variant of a valid one plans to
/// positive sizes for sources of any shape.
@_cdecl("LLVMFuzzerTestOneInput")
public func parseOneDeclaration(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var variants = (try? BucketDeclaration(parsing: bytes))?.variants ?? []
    let text = String(decoding: bytes, as: UTF8.self)
    let query = text.split(separator: "&").map { pair in
        (name: String(pair.prefix { $0 != "=" }), value: String(pair.drop { $0 != "=" }.dropFirst()))
    }
    if let transform = try? Transform(query: query, accept: text) { variants.append(transform.spec) }
    for variant in variants {
        _ = variant.canonicalJSON
        for (width, height) in [(1, 1), (1, 65_535), (65_535, 1), (4_000, 3_000)] {
            let plan = RenderPlan(
                sourceWidth: width, sourceHeight: height, spec: variant, sourceHasAlpha: size % 2 == 0,
                sourceFormat: nil)
            precondition(plan.outputWidth > 0 && plan.outputHeight > 0)
        }
    }
    return 0
}
