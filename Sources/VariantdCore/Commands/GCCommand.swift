import Foundation
import Variants

/// `variantd gc --root STORE --out STORE`: removes the renditions of bytes no object holds any more, the
/// sweep for what storage events missed.
package struct GCCommand: Subcommand {
    package static let name = "gc"
    package static let abstract =
        "Remove the renditions whose source bytes no object under --root holds any more."
    package static let usage =
        "gc --root <store> --out <store> [--grace <age>] [--dry-run] [--json] [--data-dir <dir>]"
    package static let details = """
        OPTIONS:
          --root <store>          The source objects: a folder, or s3://BUCKET[/PREFIX] (configured from
                                  the AWS environment variables).
          --out <store>           The rendition store: a folder, or s3://BUCKET[/PREFIX].
          --grace <age>           Keep renditions younger than this, whatever their source (default: 1h;
                                  0s, 45s, 30m, 12h, 7d): a render in flight is never taken.
          --dry-run               Remove nothing; print each rendition that would go, and the summary.
          --json                  Print the summary as one JSON line: removed, keptLive, keptYoung,
                                  bytesFreed, sourcesHashed, sourcesReused, dryRun.
          --data-dir <dir>        variantd's state folder, which holds gc.sqlite3 (default:
                                  $VARIANTD_DATA_DIR or /var/lib/variantd).
          -h, --help              Show help information.

        Renditions are kept by the checksum of their source's bytes (<sha[0..2]>/<sha>/<spec>.<ext>). gc first
        walks --root page by page and hashes each object whose version it has not hashed before; what it
        hashed (a file's inode, size and times, an object's ETag, size and Last-Modified, and the checksum)
        is kept in <data-dir>/gc.sqlite3, so an unchanged object is not read again and a stopped run loses
        nothing it hashed. Then it walks the rendition store source by source: the renditions of bytes no
        object holds are removed once older than --grace (a file's modification time, an object's
        Last-Modified), and a source's folder with them once empty. Nothing is removed unless all of --root
        was walked. It removes only what is old and unclaimed, so it may run while serve and work add
        renditions.

        A progress line is drawn on stderr when it is a terminal. Exit status: 0 done, 64 a wrong command
        line, 75 a store that cannot be reached (run it again), 66 a source that cannot be read, 74 a
        rendition that cannot be removed or a state file that cannot be written, 77 access refused.
        """

    let sources: StoreLocation
    let renditions: StoreLocation
    let grace: Duration
    let dryRun: Bool
    let json: Bool
    let stateFile: String

    package init(parsing arguments: inout Arguments) throws(UsageError) {
        dryRun = arguments.flag("--dry-run")
        json = arguments.flag("--json")
        guard let root = try arguments.option("--root") else {
            throw UsageError("Missing expected option '--root'")
        }
        guard let out = try arguments.option("--out") else {
            throw UsageError("Missing expected option '--out'")
        }
        sources = try StoreLocation(root)
        renditions = try StoreLocation(out)
        grace = try AgeArgument.parse(
            try arguments.option("--grace") ?? "1h", option: "--grace", allowingZero: true)
        let dataDirectory = try arguments.option("--data-dir") ?? QueueLocation.defaultDataDirectory
        stateFile = GCState.defaultFile(in: dataDirectory)
        let operands = try arguments.positionals()
        guard operands.isEmpty else { throw UsageError("Unexpected argument '\(operands[0])'") }
    }

    package func run() async throws -> ExitStatus {
        let progress = GCProgress(shows: FileDescriptor.standardError.isTerminal)
        progress.update { $0.dryRun = dryRun }
        let run = GCRun(
            sources: sources, renditions: renditions, grace: grace, dryRun: dryRun, stateFile: stateFile,
            environment: ProcessInfo.processInfo.environment, progress: progress,
            wouldRemove: { [json] name, size in
                if !json { Console.out("would remove \(name) (\(size) bytes)") }
            })
        let drawing = progress.show()
        let outcome = await Blocking.run { () throws(GCError) in try run.run() }
        drawing.cancel()
        progress.finish()
        if case .failure(let error) = outcome, error.status == .usage { throw UsageError(error.description) }
        let summary = progress.summary
        if json {
            Console.out(try WireJSON.line(summary))
        } else {
            Console.out(summary.text(grace: grace))
        }
        guard case .failure(let error) = outcome else { return .success }
        Console.error("Error: \(error.description)")
        return error.status
    }
}
