/// An age given on the command line as a whole number and a unit: `45s`, `30m`, `12h`, `7d`.
enum AgeArgument {
    static func parse(_ text: String, option: String) throws(UsageError) -> Duration {
        let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        guard let unit = text.last.flatMap({ units[$0] }), let count = Int64(text.dropLast()), count > 0,
            count <= 36_500 * 86_400 / unit
        else {
            throw UsageError("'\(option)' takes an age such as 45s, 30m, 12h or 7d, got '\(text)'")
        }
        return .seconds(count * unit)
    }
}
