import Foundation
import Testing

@testable import VariantdCore

/// The RFC 3339 text a timestamp is written as, against Foundation's formatter, and read back.
@Suite struct TimestampTests {
    @Test(arguments: [
        Int64(0), 1, 999, 86_399_999, 86_400_000, 951_782_400_000,  // 2000-02-29
        4_107_542_399_999,  // 2100-02-28T23:59:59.999
        4_107_542_400_000, 1_796_040_615_123, -1, -86_400_001, -2_208_988_800_000,  // 1900-01-01
        253_402_300_799_999,  // 9999-12-31T23:59:59.999
    ])
    func writesWhatFoundationWrites(milliseconds: Int64) throws {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let expected = formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
        #expect(Timestamp(milliseconds: milliseconds).description == expected)
    }

    @Test func fourHundredYearsRoundTrip() throws {
        // Thirty-seven days and an hour a step, from 1900 through 2300: four centuries of month and leap-year turns.
        var milliseconds: Int64 = -2_208_988_800_000
        var checked = 0
        while milliseconds < 10_413_792_000_000 {
            let stamp = Timestamp(milliseconds: milliseconds)
            let decoded = try JSONDecoder().decode(Timestamp.self, from: JSONEncoder().encode(stamp))
            #expect(decoded == stamp)
            if decoded != stamp { break }
            milliseconds += 37 * 86_400_000 + 3_600_123
            checked += 1
        }
        #expect(checked > 3_900)
    }
}
