import Foundation

/// The `LastModified` of a ListObjectsV2 entry, ISO 8601 in UTC, with or without milliseconds.
final class ListingDate {
    private let withFraction: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }()
    private let whole = ISO8601DateFormatter()

    func parse(_ text: String) -> Date? {
        withFraction.date(from: text) ?? whole.date(from: text)
    }
}
