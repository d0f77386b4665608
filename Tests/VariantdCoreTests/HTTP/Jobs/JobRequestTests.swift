import Foundation
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdCore

/// A job body read at the edge: an inline bucket goes through the declaration parser.
@Suite struct JobRequestTests {
    private let objects = ObjectFolder.wholeFileSystem
    private var source: String {
        String(TestPaths.samples.appendingPathComponent("pictures/gradient.jpg").path.dropFirst())
    }

    private func body(policy: String) -> [UInt8] {
        Array(
            #"{"id": "j", "bucket": "b", "path": "p.jpg", "source": "\#(source)", "bucketPolicy": \#(policy)}"#
                .utf8)
    }

    @Test func anInlinePolicyIsParsedOnce() throws {
        let job = try JobRequest(
            body: body(policy: #"{"name": "b", "variants": {"v": {"width": 8}}}"#), objects: objects)
        #expect(job.inlineBucket?.variant(named: "v")?.width == 8)
        #expect(job.source.key == source)
    }

    @Test func anUploadTakesItsFieldsFromTheQuery() throws {
        let job = try JobRequest(
            query: ["id": "u1", "bucket": "b", "path": "a/p.jpg", "declaredContentType": "image/jpeg"],
            body: .bytes([1, 2, 3]))
        #expect(job.id == "u1" && job.object.bucket == "b" && job.object.path == "a/p.jpg")
        #expect(job.object.declaredContentType == "image/jpeg")
        #expect(job.source.key == nil)
        guard case .uploaded(let body) = job.source else { throw DaemonFailure(description: "not an upload") }
        #expect(try body.bytes() == [1, 2, 3])
    }

    @Test func anUploadRefusesUnknownAndMissingParameters() {
        let fields = ["id": "u1", "bucket": "b", "path": "p.jpg"]
        for query in [
            fields.merging(["async": "1"]) { $1 }, fields.merging(["source": "x"]) { $1 },
            fields.filter { $0.key != "path" }, fields.merging(["id": "no spaces"]) { $1 },
            fields.merging(["bucket": "../etc"]) { $1 },
        ] {
            #expect(throws: VariantsError.self, "\(query)") { try JobRequest(query: query, body: .empty) }
        }
    }

    @Test func anInlinePolicyWithAKeyGivenTwiceIsRefused() {
        let twice = #"{"name": "b", "variants": {"v": {"width": 8, "width": 9}}}"#
        #expect(
            throws: VariantsError.invalidTransform(
                path: "bucketPolicy.variants.v.width", expected: "each key once", got: #"a second "width""#)
        ) { try JobRequest(body: body(policy: twice), objects: objects) }
    }

    @Test func anInlinePolicyForAnotherBucketIsRefused() {
        #expect(throws: VariantsError.self) {
            try JobRequest(body: body(policy: #"{"name": "c"}"#), objects: objects)
        }
    }
}
