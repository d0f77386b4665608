import Foundation
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdCore

/// The daemon answers a store outage in its own words: `503 transform_busy`, like a full daemon.
@Suite struct AnswerErrorTests {
    @Test func aStoreOutageIsAnsweredAsTransformBusy() throws {
        let outage = AnswerError(VariantsError(.storeUnavailable, "object storage unavailable: s3://b/k"))
        #expect(outage == .service(ServiceError(.transformBusy, "object storage unavailable: s3://b/k")))
        #expect(outage.isBusy && outage.statusCode == 503 && outage.code == "transform_busy")
        let response = HTTPResponse.error(VariantsError(.storeUnavailable, "m"))
        #expect(response.status == 503)
        #expect(String(decoding: response.body, as: UTF8.self).contains(#""error":"transform_busy""#))

        let answer = PipelineAnswer(.failure(VariantsError(.storeUnavailable, "m")), timings: StageTimings())
        let body = Array(
            #"{"id": "j", "bucket": "b", "path": "p.jpg", "source": "\#(TestPaths.samples.path.dropFirst())/pictures/gradient.jpg"}"#
                .utf8)
        let request = try JobRequest(body: body, objects: ObjectFolder.wholeFileSystem)
        let record = JobRecord(request: request, answer: answer, seconds: 0)
        #expect(
            record.code == "transform_busy" && record.status == 503, "logs and metrics say what the wire says"
        )

        let missing = AnswerError(VariantsError(.notFound, "m"))
        #expect(missing == .pipeline(VariantsError(.notFound, "m")) && !missing.isBusy)
    }
}
