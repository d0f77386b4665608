/// The words after the subcommand name, consumed as options are read; what is left are positionals.
///
/// Options take `--name value` or `--name=value`; `--` ends the options.
public struct Arguments: Sendable {
    private var words: [String]

    public init(_ words: [String]) {
        self.words = words
    }

    /// Whether `--help` or `-h` is among the words (before any `--`).
    public var wantsHelp: Bool {
        words.prefix { $0 != "--" }.contains { $0 == "--help" || $0 == "-h" }
    }

    /// Removes every occurrence of a flag and says whether there was one.
    public mutating func flag(_ names: String...) -> Bool {
        let end = words.firstIndex(of: "--") ?? words.endIndex
        let before = words.count
        words = words[..<end].filter { !names.contains($0) } + words[end...]
        return words.count != before
    }

    /// Removes an option and its value; the last occurrence wins.
    public mutating func option(_ names: String...) throws(UsageError) -> String? {
        var value: String?
        var index = 0
        while index < words.count, words[index] != "--" {
            let word = words[index]
            if names.contains(word) {
                guard index + 1 < words.count, words[index + 1] != "--" else {
                    throw UsageError("Missing value for '\(word)'")
                }
                value = words[index + 1]
                words.removeSubrange(index...index + 1)
            } else if let name = names.first(where: { word.hasPrefix($0 + "=") }) {
                value = String(word.dropFirst(name.count + 1))
                words.remove(at: index)
            } else {
                index += 1
            }
        }
        return value
    }

    /// Removes an integer option, checking its range.
    public mutating func integer(_ names: String..., in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        var value: String?
        for name in names {
            if let found = try option(name) { value = found }
        }
        guard let value else { return nil }
        guard let number = Int(value), range.contains(number) else {
            throw UsageError(
                "'\(names[0])' takes a whole number in \(range.lowerBound)...\(range.upperBound), got '\(value)'"
            )
        }
        return number
    }

    /// The remaining words, which must not include unknown options.
    public mutating func positionals() throws(UsageError) -> [String] {
        var result: [String] = []
        var optionsEnded = false
        for word in words {
            if !optionsEnded && word == "--" {
                optionsEnded = true
            } else if !optionsEnded && word.hasPrefix("-") && word != "-" {
                throw UsageError("Unknown option '\(word)'")
            } else {
                result.append(word)
            }
        }
        words = []
        return result
    }
}
