import Foundation
import Testing

@testable import VariantdCore

/// The render log line, built by hand, is the wire form an encoder would write.
@Suite struct RenderRecordTests {
    @Test func theLineIsSortedJSONWithEveryStringEscaped() throws {
        var record = RenderRecord(
            method: "GET", outcome: .notModified, code: "ok", status: 304, seconds: 0.000042, bytesOut: 0)
        record.bucket = "pics"
        record.path = "a \"quoted\"\\path\u{1}é/x.jpg"
        let line = Self.line(of: record)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["path"] as? String == record.path && object["bucket"] as? String == "pics")
        #expect(object["outcome"] as? String == "not_modified" && object["event"] as? String == "render")
        #expect(object["status"] as? Int == 304 && object["bytesOut"] as? Int == 0)
        #expect(object["seconds"] as? Double == 0.000042 && object["method"] as? String == "GET")
        #expect(object["code"] as? String == "ok" && object.count == 9)
        let keys = ["bucket", "bytesOut", "code", "event", "method", "outcome", "path", "seconds", "status"]
        let positions = keys.map { line.range(of: "\"\($0)\":")?.lowerBound }
        #expect(positions.allSatisfy { $0 != nil } && positions == positions.sorted { $0! < $1! })

        let refused = RenderRecord(
            method: "POST", outcome: .rejected, code: "invalid_request", status: 400, seconds: 1, bytesOut: 0)
        let bare = try #require(
            try JSONSerialization.jsonObject(with: Data(Self.line(of: refused).utf8)) as? [String: Any])
        #expect(bare["bucket"] == nil && bare["path"] == nil && bare.count == 7)
        #expect(Self.line(of: refused).contains(#""seconds":1.000000,"#))
    }

    @Test func secondsAreWrittenToTheMicrosecond() {
        let seconds = [
            0.0000004: "0.000000", 0.0000426: "0.000043", 2.5: "2.500000", 61.1234567: "61.123457",
        ]
        for (value, text) in seconds {
            let record = RenderRecord(
                method: "GET", outcome: .hit, code: "ok", status: 200, seconds: value, bytesOut: 7)
            #expect(Self.line(of: record).contains(#""seconds":\#(text),"status":200}"#), "\(value)")
        }
    }

    private static func line(of record: RenderRecord) -> String {
        var line: [UInt8] = []
        record.write(to: &line)
        return String(decoding: line, as: UTF8.self)
    }
}
