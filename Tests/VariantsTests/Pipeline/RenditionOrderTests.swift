import Foundation
import Testing

@testable import Variants

/// The order crosses to a decoder child field by field (no declaration text inside it), and every field read
/// back is held to the declaration's rules.
@Suite struct RenditionOrderTests {
    private static let object = ObjectRequest(bucket: "b", path: "p.jpg")
    private static let checksum = String(repeating: "ab", count: 32)

    private func wire(_ order: RenditionOrder) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(order)) as? [String: Any])
    }

    private func decode(_ object: [String: Any]) throws -> RenditionOrder {
        try JSONDecoder().decode(RenditionOrder.self, from: JSONSerialization.data(withJSONObject: object))
    }

    @Test(arguments: ["post-images.json", "everything.json"])
    func aBucketsOrderSurvivesTheWire(file: String) throws {
        let bucket = try BucketDeclaration(parsing: try Samples.bucket(file))
        let order = RenditionOrder(Self.object, bucket: bucket).knowing(checksum: Self.checksum)
        #expect(try decode(try wire(order)) == order)
        #expect(order.wantedSpecKeys == Set(bucket.variants.map(RenditionKey.specKey)))
    }

    @Test func everySettingSurvivesTheWire() throws {
        #expect(BucketDeclaration.settingsLeftAtDefault.isEmpty, "\(BucketDeclaration.settingsLeftAtDefault)")
        let bucket = try BucketDeclaration.parsingEverySetting()
        let order = RenditionOrder(Self.object, bucket: bucket)
        let again = try decode(try wire(order))
        #expect(again == order)
        #expect(again.outputs.map(\.spec.canonicalJSON) == bucket.variants.map(\.canonicalJSON))
        #expect(again.policy == bucket.policy)
        #expect(again.policy?.blockExecutables == true)
    }

    /// A policy without the field blocks nothing, as a declaration without it does.
    @Test func aPolicyWithoutTheExecutablesRuleBlocksNone() throws {
        let order = try decode([
            "object": ["bucket": "b", "path": "p.exe"],
            "policy": ["name": "b", "allowedMimeTypes": [String]()],
            "outputs": [Any](), "placeholder": false,
        ])
        #expect(order.policy?.blockExecutables == false)
    }

    @Test func theWireHoldsValuesNotDeclarationText() throws {
        let bucket = try BucketDeclaration(parsing: try Samples.bucket("post-images.json"))
        let outputs = try #require(try wire(RenditionOrder(Self.object, bucket: bucket))["outputs"] as? [Any])
        let first = try #require(outputs.first as? [String: Any])
        let spec = try #require(first["spec"] as? [String: Any])
        #expect(spec["fit"] as? String != nil)
        #expect(first["specKey"] as? String == RenditionKey.specKey(of: bucket.variants[0]))
    }

    /// The child takes the spec key the parent computed with the spec, rather than computing it again.
    @Test func theSpecKeyIsCarriedNotComputedAgain() throws {
        let bucket = try BucketDeclaration(parsing: try Samples.bucket("post-images.json"))
        var object = try wire(RenditionOrder(Self.object, bucket: bucket))
        var outputs = try #require(object["outputs"] as? [[String: Any]])
        outputs[0]["specKey"] = "0123456789abcdef"
        object["outputs"] = outputs
        #expect(try decode(object).outputs[0].specKey == "0123456789abcdef")
    }

    /// A value no declaration could hold, put into each field of a valid order in turn.
    static let corruptions: [(field: String, edit: @Sendable (inout [String: Any]) -> Void)] = [
        ("width 0", { editSpec(&$0) { $0["width"] = 0 } }),
        ("width over the largest side", { editSpec(&$0) { $0["width"] = 4097 } }),
        ("height over the largest side", { editSpec(&$0) { $0["height"] = 4097 } }),
        (
            "neither side",
            {
                editSpec(&$0) {
                    $0["width"] = nil
                    $0["height"] = nil
                }
            }
        ),
        ("quality 0", { editSpec(&$0) { $0["quality"] = 0 } }),
        (
            "quality and a target",
            {
                editSpec(&$0) {
                    $0["quality"] = 80
                    $0["qualityTarget"] = "auto"
                }
            }
        ),
        ("target below the scores", { editSpec(&$0) { $0["qualityTarget"] = 20 } }),
        ("target of another word", { editSpec(&$0) { $0["qualityTarget"] = "best" } }),
        ("blur over 20", { editSpec(&$0) { $0["blur"] = 21 } }),
        ("negative sharpen", { editSpec(&$0) { $0["sharpen"] = -1 } }),
        ("effort over 6", { editSpec(&$0) { $0["effort"] = 7 } }),
        ("rotation of 45", { editSpec(&$0) { $0["rotation"] = 45 } }),
        ("unknown fit", { editSpec(&$0) { $0["fit"] = "squash" } }),
        ("variant name with a slash", { editSpec(&$0) { $0["name"] = "a/b" } }),
        (
            "colour channel over 255",
            { editSpec(&$0) { $0["background"] = ["red": 256, "green": 0, "blue": 0, "alpha": 0] } }
        ),
        (
            "policy name outside the rule",
            { $0["policy"] = ["name": "../x", "allowedMimeTypes": [String]()] }
        ),
        ("media type without a subtype", { $0["policy"] = ["name": "b", "allowedMimeTypes": ["image"]] }),
        (
            "size limit of 0",
            { $0["policy"] = ["name": "b", "fileSizeLimit": 0, "allowedMimeTypes": [String]()] }
        ),
        (
            "executables blocked by a string",
            { $0["policy"] = ["name": "b", "allowedMimeTypes": [String](), "blockExecutables": "yes"] }
        ),
        ("checksum that is a path", { $0["checksum"] = "../../etc" }),
        (
            "spec key that is a path",
            {
                var outputs = $0["outputs"] as! [[String: Any]]
                outputs[0]["specKey"] = "../../etc/passwd"
                $0["outputs"] = outputs
            }
        ),
        (
            "too many outputs",
            {
                let outputs = $0["outputs"] as! [Any]
                $0["outputs"] = Array(repeating: outputs[0], count: BucketDeclaration.maximumVariants + 1)
            }
        ),
    ]

    private static func editSpec(_ order: inout [String: Any], _ edit: (inout [String: Any]) -> Void) {
        var outputs = order["outputs"] as! [[String: Any]]
        var spec = outputs[0]["spec"] as! [String: Any]
        edit(&spec)
        outputs[0]["spec"] = spec
        order["outputs"] = outputs
    }

    @Test(arguments: corruptions.indices)
    func aValueNoDeclarationCouldHoldIsRefused(index: Int) throws {
        let bucket = try BucketDeclaration(
            parsing: #"{"name": "b", "allowedMimeTypes": ["image/*"], "variants": {"v": {"width": 8}}}"#.utf8)
        var object = try wire(RenditionOrder(Self.object, bucket: bucket).knowing(checksum: Self.checksum))
        #expect(try decode(object).outputs.count == 1)
        Self.corruptions[index].edit(&object)
        #expect(throws: DecodingError.self, "\(Self.corruptions[index].field)") { try decode(object) }
    }

    @Test func aDeclaredSpecIsMadeWithTheBucketsOtherVariantsShapingIt() throws {
        let bucket = try BucketDeclaration(parsing: try Samples.bucket("post-images.json"))
        let declared = try #require(bucket.variants.first)
        let order = RenditionOrder(
            Self.object, rendering: RenditionOutput(declared, wanted: true), among: Self.outputs(of: bucket))
        #expect(order.outputs.map(\.spec) == bucket.variants)
        #expect(order.wantedSpecKeys == [RenditionKey.specKey(of: declared)])
        #expect(order.policy == nil && !order.placeholder && order.checksum == nil)
    }

    @Test func anUndeclaredSpecIsMadeAlone() throws {
        let bucket = try BucketDeclaration(parsing: try Samples.bucket("post-images.json"))
        let spec = try Transform(query: [("width", "17")], accept: nil).spec
        let order = RenditionOrder(
            Self.object, rendering: RenditionOutput(spec, wanted: true), among: Self.outputs(of: bucket))
        #expect(
            order.outputs.map(\.spec) == [spec] && order.wantedSpecKeys == [RenditionKey.specKey(of: spec)])
        #expect(order.knowing(checksum: Self.checksum).checksum == Self.checksum)
    }

    private static func outputs(of bucket: BucketDeclaration) -> [RenditionOutput] {
        bucket.variants.map { RenditionOutput($0, wanted: true) }
    }
}
