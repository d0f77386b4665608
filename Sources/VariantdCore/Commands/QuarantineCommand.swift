import Foundation

/// `variantd quarantine list|release`: the files that killed decoders, as the operator sees and forgives them.
package struct QuarantineCommand: Subcommand {
    package static let name = "quarantine"
    package static let abstract = "List the files that killed decoders, or release one."
    package static let usage = "quarantine list|release <sha256> [--file <path>] [--data-dir <dir>]"
    package static let details = """
        ARGUMENTS:
          list                    One JSON line per file: checksumSha256, failures, firstFailure,
                                  lastFailure, reason; the most recent first. Nothing while no file has
                                  been quarantined.
          release <sha256>        Forget a file, so its next job is decoded again (exit 1 when absent).

        OPTIONS:
          --file <path>           The quarantine file (VARIANTD_QUARANTINE; default:
                                  <data-dir>/quarantine.sqlite3).
          --data-dir <dir>        variantd's state folder (default: $VARIANTD_DATA_DIR or /var/lib/variantd).
          -h, --help              Show help information.
        """

    enum Action: Sendable {
        case list
        case release(String)
    }

    let action: Action
    let file: String

    package init(parsing arguments: inout Arguments) throws(UsageError) {
        let dataDirectory = try arguments.option("--data-dir") ?? QueueLocation.defaultDataDirectory
        file =
            try arguments.option("--file") ?? ProcessInfo.processInfo.environment["VARIANTD_QUARANTINE"]
            ?? Quarantine.defaultFile(in: dataDirectory)
        let words = try arguments.positionals()
        switch words.first {
        case "list" where words.count == 1:
            action = .list
        case "release" where words.count == 2:
            let checksum = words[1].lowercased()
            guard checksum.count == 64, checksum.allSatisfy(\.isHexDigit) else {
                throw UsageError("'\(words[1])' is not a SHA-256 in hex")
            }
            action = .release(checksum)
        default:
            throw UsageError("Expected 'list' or 'release <sha256>'")
        }
    }

    package func run() async throws -> ExitStatus {
        // Opening the quarantine creates it: not here, where a file made by root would be one the daemon's
        // user cannot write. None yet (no decoder has died) holds no file.
        let quarantine = FileManager.default.fileExists(atPath: file) ? try Quarantine(file: file) : nil
        switch action {
        case .list:
            for entry in try quarantine?.entries() ?? [] {
                Console.out(try WireJSON.line(entry))
            }
            return .success
        case .release(let checksum):
            guard try quarantine?.release(checksum) == true else {
                Console.error("\(checksum) is not in the quarantine at \(file)")
                return .failure
            }
            Console.out("released \(checksum)")
            return .success
        }
    }
}
