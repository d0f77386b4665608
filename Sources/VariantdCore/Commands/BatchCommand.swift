import Foundation
import Variants

#if canImport(Glibc)
    import Glibc
#endif

/// `variantd batch --bucket FILE --out OUT DIR`: every file under a folder through the same pipeline as the
/// daemon — for backfills, migrations and re-renders after a bucket changes its variants.
struct BatchCommand: Subcommand {
    static let name = "batch"
    static let abstract = "Process every file under a folder: metadata, renditions and a resumable manifest."
    static let usage = "batch --bucket <file> --out <dir> [--jobs <n>] [--quiet] [--json] [--strict] <dir>"
    static let details = """
        ARGUMENTS:
          <dir>                   The folder to walk; every regular file under it is processed (symbolic
                                  links are not followed). A file's path relative to it is its object path.

        OPTIONS:
          --bucket <file>         The bucket declaration (JSON): its name, policy and variants.
          --out <dir>             Where results go: renditions in <dir>/renditions, one JSON line per file
                                  in <dir>/manifest.jsonl. Created if needed.
          -j, --jobs <n>          Files decoded at once, each in its own decoder process (default: the
                                  number of cores).
          --quiet                 No progress and no summary table (errors are still reported).
          --json                  Print the summary as one JSON object on stdout instead of the table.
          --strict                Exit 1 when any file is unreadable or failed.
          -h, --help              Show help information.

        A re-run skips the files whose path, bytes (SHA-256) and bucket declaration match a line of the
        manifest, so an interrupted run resumes and a changed declaration re-renders. Ctrl-C stops cleanly:
        files in flight finish, the manifest keeps whole lines only; press it again to quit at once.

        EXIT STATUS:
          0    every file was processed (unreadable pictures and unsupported files are results)
          1    --strict, and a file was unreadable or failed
          64   usage error: missing folder, bad bucket declaration
          74   the output or the manifest cannot be written
          75   some files met a temporary error (internal, busy); a re-run retries them
          130  interrupted by Ctrl-C (143 by SIGTERM); a re-run resumes
        """

    let folder: String
    let bucket: BucketSpec
    let output: String
    let jobs: Int
    let quiet: Bool
    let json: Bool
    let strict: Bool

    init(parsing arguments: inout Arguments) throws(UsageError) {
        guard let bucketPath = try arguments.option("--bucket") else {
            throw UsageError("Missing expected option '--bucket <file>'")
        }
        guard let output = try arguments.option("--out") else {
            throw UsageError("Missing expected option '--out <dir>'")
        }
        self.output = output
        jobs =
            try arguments.integer("--jobs", "-j", in: 1...256) ?? ProcessInfo.processInfo.activeProcessorCount
        quiet = arguments.flag("--quiet")
        json = arguments.flag("--json")
        strict = arguments.flag("--strict")
        let positionals = try arguments.positionals()
        guard let folder = positionals.first else { throw UsageError("Missing expected argument '<dir>'") }
        guard positionals.count == 1 else { throw UsageError("Unexpected argument '\(positionals[1])'") }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            throw UsageError("The folder '\(folder)' does not exist or is not a directory")
        }
        self.folder = URL(fileURLWithPath: folder).resolvingSymlinksInPath().path
        bucket = try BucketDeclarationFile.read(bucketPath)
    }

    func run() async throws -> ExitStatus {
        let outputURL = URL(fileURLWithPath: output).standardizedFileURL
        let manifestPath = outputURL.appendingPathComponent("manifest.jsonl").path
        let manifest: ManifestWriter
        let earlier: ManifestReader.Contents
        let renditions: RenditionFolder
        let objects = try ObjectFolder(folder)
        do {
            try FileManager.default.createDirectory(at: outputURL, withIntermediateDirectories: true)
            (manifest, earlier) = try ManifestWriter.open(manifestPath)
            renditions = try RenditionFolder(root: outputURL.appendingPathComponent("renditions").path)
        } catch {
            Console.error("Error: the output \(output) cannot be written: \(error)")
            return .ioError
        }
        if earlier.unreadableLines > 0 {
            Console.error(
                "warning: \(earlier.unreadableLines) lines of \(manifestPath) are not records; ignored")
        }
        let progress = ProgressReporter(style: .forStandardError(quiet: quiet))
        let signals = InterruptSignal(
            onFirst: { number in
                let name = number == SIGINT ? "Ctrl-C" : "SIGTERM"
                progress.notice("\(name): finishing the files in flight; press Ctrl-C again to quit now")
            },
            onSecond: { number in
                manifest.whileNotWriting { exit(128 + number) }
            })
        let pool = DecoderPool(
            .init(executable: Executable.current, size: jobs), objects: objects, renditions: renditions)
        let batch = BatchRun(
            folder: folder, excluded: [outputURL.resolvingSymlinksInPath().path], bucket: bucket,
            fingerprint: try DeclarationFingerprint.of(bucket), jobs: jobs,
            pool: pool, done: earlier.done, manifest: manifest, progress: progress,
            interrupted: { signals.received != nil })
        let display = progress.show()
        var writeFailure: (any Error)?
        do {
            try await batch.run()
        } catch {
            writeFailure = error
        }
        display.cancel()
        progress.finish()
        await pool.shutdown()
        do {
            try manifest.close()
        } catch {
            writeFailure = writeFailure ?? error
        }
        signals.stop()
        let tally = progress.tally
        let summary = BatchSummary(
            tally, elapsed: progress.elapsed, interrupted: signals.received != nil, manifest: manifestPath)
        if json {
            Console.out(try WireJSON.line(summary))
        } else if !quiet {
            Console.out(summary.table)
        }
        if let writeFailure {
            Console.error("Error: the manifest \(manifestPath) cannot be written: \(writeFailure)")
            return .ioError
        }
        return status(tally, signal: signals.received)
    }

    private func status(_ tally: BatchTally, signal: Int32?) -> ExitStatus {
        if let signal { return signal == SIGINT ? .interrupted : .terminated }
        if strict && (tally.unreadable + tally.skippedUnreadable + tally.allErrors > 0) { return .failure }
        if tally.retryable > 0 { return .temporaryFailure }
        return .success
    }
}
