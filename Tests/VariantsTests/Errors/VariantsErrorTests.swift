import Foundation
import Testing
import Variants

@Suite struct VariantsErrorTests {
    @Test func wireFormHasStatusCodeReasonAndMessage() throws {
        let error = VariantsError.unreadable(.truncated, "the image/jpeg data ends early")
        let object = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(error)) as? [String: Any])
        #expect(object["statusCode"] as? Int == 422)
        #expect(object["error"] as? String == "unreadable_picture")
        #expect(object["reason"] as? String == "truncated")
        #expect(object["message"] as? String == "the image/jpeg data ends early")
    }

    @Test func roundTripsThroughJSON() throws {
        let error = VariantsError(.payloadTooLarge, "too big")
        #expect(try JSONDecoder().decode(VariantsError.self, from: JSONEncoder().encode(error)) == error)
    }

    @Test(arguments: [
        (VariantsError.Code.unreadablePicture, 422), (.unsupportedMediaType, 415), (.payloadTooLarge, 413),
        (.invalidTransform, 400), (.tooManyVariants, 429), (.storeUnavailable, 503),
    ])
    func codesMapToStatuses(code: VariantsError.Code, status: Int) {
        #expect(code.statusCode == status)
    }

    @Test func aStoreOutageIsTransientAndReadsUnderItsOldName() throws {
        #expect(VariantsError.Code.storeUnavailable.isTransient)
        let written = try JSONEncoder().encode(VariantsError(.storeUnavailable, "object storage unavailable"))
        #expect(String(decoding: written, as: UTF8.self).contains(#""error":"store_unavailable""#))
        let stored = Data(#"{"statusCode":503,"error":"transform_busy","message":"m"}"#.utf8)
        #expect(try JSONDecoder().decode(VariantsError.self, from: stored).code == .storeUnavailable)
        let unknown = Data(#"{"statusCode":503,"error":"made_up","message":"m"}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(VariantsError.self, from: unknown) }
    }
}
