import Foundation

/// `variantd sign-url --key-file F --expires-in S TARGET`: the signed form of a render (or info) URL of a
/// private bucket, as the daemon started with the same `--url-key-file` checks it.
package struct SignURLCommand: Subcommand {
    package static let name = "sign-url"
    package static let abstract = "Sign a /v1/render or /v1/info URL of a private bucket with the URL key."
    package static let usage = "sign-url --key-file <file> [--expires-in <seconds>] <target>"
    package static let details = """
        ARGUMENTS:
          <target>                The request target, path and query as they will be sent
                                  ('/v1/render/post-images/a/cat.jpg?width=200').

        OPTIONS:
          --key-file <file>       The URL key (VARIANTD_URL_KEY_FILE), at least 16 bytes.
          --expires-in <seconds>  How long the URL is valid (default 3600).
          -h, --help              Show help information.

        Prints the target with expires=<unix seconds> and, last, signature=<base64url HMAC-SHA256>.
        """

    let key: URLKey
    let expiresIn: Int
    let target: String

    package init(parsing arguments: inout Arguments) throws(UsageError) {
        guard
            let path = try arguments.option("--key-file")
                ?? ProcessInfo.processInfo.environment["VARIANTD_URL_KEY_FILE"]
        else { throw UsageError("Missing '--key-file <file>' (or VARIANTD_URL_KEY_FILE)") }
        key = try URLKey(file: path)
        expiresIn = try arguments.integer("--expires-in", in: 1...(10 * 365 * 86_400)) ?? 3600
        let targets = try arguments.positionals()
        guard targets.count == 1, let target = targets.first, target.hasPrefix("/") else {
            throw UsageError("Expected one <target> starting with '/'")
        }
        self.target = target
    }

    package func run() async throws -> ExitStatus {
        Console.out(key.sign(target, expires: Int(Date().timeIntervalSince1970) + expiresIn))
        return .success
    }
}
