import Foundation
import Variants

/// `variantd usage`: an account's counted transforms per month and bucket, what the storage layer bills
/// from, as `GET /v1/accounts/<name>/usage` answers it.
package struct UsageCommand: Subcommand {
    package static let name = "usage"
    package static let abstract = "Print an account's transforms per month and bucket, for billing."
    package static let usage = "usage [--queue <location>] --account <name> [--month YYYY-MM]"
    package static let details = """
        OPTIONS:
          --queue <location>      sqlite:PATH or postgres://… (default: sqlite:<data-dir>/queue.sqlite3).
          --data-dir <dir>        Where the default queue lives.
          --account <name>        The account (a bucket declares its account; it defaults to the bucket's
                                  own name).
          --month <YYYY-MM>       One month, UTC (default: every month counted).
          -h, --help              Show help information.

        Prints {"account","month"?,"buckets":[{"month","bucket","transforms"}…],"total"}. A transform counts
        once per account and month: the first request that month for an object with a set of options.
        """

    let location: QueueLocation
    let account: String
    let month: String?

    package init(parsing arguments: inout Arguments) throws(UsageError) {
        location = try QueueLocation.parse(&arguments).location
        guard let account = try arguments.option("--account") else {
            throw UsageError("Missing expected option '--account'")
        }
        guard AccountsEndpoint.isName(account) else {
            throw UsageError("'--account' takes a \(BucketDeclaration.nameRule), got '\(account)'")
        }
        self.account = account
        month = try arguments.option("--month")
        if let month, Month(month) == nil {
            throw UsageError("'--month' takes YYYY-MM, got '\(month)'")
        }
        _ = try arguments.positionals()
    }

    package func run() async throws -> ExitStatus {
        let queue = try await location.open()
        let usage = try await queue.usage(account: account, month: month)
        Console.out(try WireJSON.line(AccountsEndpoint.Usage(account: account, month: month, buckets: usage)))
        return .success
    }
}
