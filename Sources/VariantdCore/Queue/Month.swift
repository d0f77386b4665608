import Foundation

/// A calendar month in UTC, `YYYY-MM`: what a transform allowance is counted per.
struct Month: Sendable, Hashable, CustomStringConvertible {
    let year: Int
    let month: Int

    /// The month `date` falls in, in UTC.
    init(_ date: Date) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month], from: date)
        year = parts.year ?? 1970
        month = parts.month ?? 1
    }

    /// `YYYY-MM`; nil for anything else.
    init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.utf8.count == 7, parts.count == 2, parts[0].count == 4, parts[1].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), (1...12).contains(month)
        else { return nil }
        self.year = year
        self.month = month
    }

    /// The first instant of the next month, UTC.
    var end: Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let next = month == 12 ? (year + 1, 1) : (year, month + 1)
        return calendar.date(from: DateComponents(year: next.0, month: next.1, day: 1)) ?? .distantFuture
    }

    var description: String {
        String(format: "%04d-%02d", year, month)
    }
}
