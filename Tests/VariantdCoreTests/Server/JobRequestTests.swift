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
        #expect(job.source == source)
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
