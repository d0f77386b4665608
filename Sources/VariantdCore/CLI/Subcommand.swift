/// One `variantd` subcommand: how it is named and documented, how it reads its arguments, and what it runs.
///
/// Parsing happens in `init(parsing:)`, once, so `run()` works on validated values only.
public protocol Subcommand: Sendable {
    /// The word after `variantd` (`batch`).
    static var name: String { get }
    /// One line for the overview.
    static var abstract: String { get }
    /// The usage line without the leading `variantd ` (`batch --bucket <file> [--out <dir>] <dir>`).
    static var usage: String { get }
    /// Arguments, options and notes shown by `variantd help <name>`.
    static var details: String { get }
    /// Whether only the program itself calls it (left out of the overview); false unless declared.
    static var isHidden: Bool { get }

    init(parsing arguments: inout Arguments) throws(UsageError)

    /// Runs the command and returns the process exit status.
    func run() async throws -> ExitStatus
}

extension Subcommand {
    public static var isHidden: Bool { false }
}
