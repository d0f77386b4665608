/// An age given on the command line as a whole number and a unit: `45s`, `30m`, `12h`, `7d`.
enum AgeArgument {
    /// `allowingZero` for an age that may be none at all (`--grace 0s`); a retention of nothing is refused.
    static func parse(_ text: String, option: String, allowingZero: Bool = false) throws(UsageError)
        -> Duration
    {
        let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        guard let unit = text.last.flatMap({ units[$0] }), let count = Int64(text.dropLast()),
            count > 0 || (allowingZero && count == 0), count <= 36_500 * 86_400 / unit,
            text.first?.isNumber == true
        else {
            throw UsageError("'\(option)' takes an age such as 45s, 30m, 12h or 7d, got '\(text)'")
        }
        return .seconds(count * unit)
    }
}
