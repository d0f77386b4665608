import Foundation
import Variants

/// `variantd batch --bucket FILE --out OUT DIR|s3://BUCKET/PREFIX`: every file under a folder or every object
/// under a prefix through the same pipeline as the daemon — for backfills, migrations and re-renders after a bucket changes its variants.
package struct BatchCommand: Subcommand {
    package static let name = "batch"
    package static let abstract =
        "Process every file under a folder: metadata, renditions and a resumable manifest."
    package static let usage =
        "batch --bucket <file> --out <dir> [--renditions <location>] [--jobs <n>] [--quiet] [--json] "
        + "[--strict] [--report] <dir>"
    package static let details = """
        ARGUMENTS:
          <dir>                   The folder to walk; every regular file under it is processed (symbolic
                                  links are not followed). A file's path relative to it is its object path.
                                  Or s3://BUCKET[/PREFIX]: every object under the prefix, listed page by
                                  page (configured from AWS_* variables; see docs/ObjectStorage.md).

        OPTIONS:
          --bucket <file>         The bucket declaration (JSON): its name, policy and variants.
          --out <dir>             Where results go: renditions in <dir>/renditions, one JSON line per file
                                  in <dir>/manifest.jsonl. Created if needed.
          --quarantine <file>     Remembers the files that killed decoders, across runs and processes
                                  (VARIANTD_QUARANTINE; default: <out>/quarantine.sqlite3).
          --renditions <location> Where renditions go instead of <dir>/renditions: a folder or
                                  s3://BUCKET[/PREFIX].
          -j, --jobs <n>          Files decoded at once, each in its own decoder process (default: the
                                  number of cores).
          --quiet                 No progress and no summary table (errors are still reported).
          --json                  Print the summary as one JSON object on stdout instead of the table.
          --strict                Exit 1 when any file is unreadable or failed.
          --report                At the end, write report.html into the --out folder: the contact
                                  sheet of `variantd report`, with this run's time.
          -h, --help              Show help information.

        A re-run skips the files whose path, bytes (SHA-256) and bucket declaration match a line of the
        manifest, so an interrupted run resumes and a changed declaration re-renders. Ctrl-C stops cleanly:
        files in flight finish, the manifest keeps whole lines only; press it again to quit at once.

        EXIT STATUS:
          0    every file was processed (unreadable pictures and unsupported files are results)
          1    --strict, and a file was unreadable or failed
          64   usage error: missing folder, bad bucket declaration
          66   part of the source cannot be read (a name not in UTF-8, a path too long)
          74   the output or the manifest cannot be written
          75   some files met a temporary error (internal, busy), or the listing broke off on one; a
               re-run retries them
          77   access refused: credentials or bucket (401, 403), or a directory not readable
          130  interrupted by Ctrl-C (143 by SIGTERM); a re-run resumes
          (the same as enqueue --walk's for the same causes: docs/Batch.md, "Exit statuses")
        """

    let folder: StoreLocation
    let bucket: BucketDeclaration
    let output: String
    let quarantine: String?
    let renditions: StoreLocation?
    let jobs: Int
    let quiet: Bool
    let json: Bool
    let strict: Bool
    let report: Bool

    package init(parsing arguments: inout Arguments) throws(UsageError) {
        guard let bucketPath = try arguments.option("--bucket") else {
            throw UsageError("Missing expected option '--bucket <file>'")
        }
        guard let output = try arguments.option("--out") else {
            throw UsageError("Missing expected option '--out <dir>'")
        }
        self.output = output
        quarantine =
            try arguments.option("--quarantine") ?? ProcessInfo.processInfo.environment["VARIANTD_QUARANTINE"]
        renditions = try arguments.option("--renditions").map { text throws(UsageError) in
            try StoreLocation(text)
        }
        jobs =
            try arguments.integer("--jobs", "-j", in: 1...256) ?? ProcessInfo.processInfo.activeProcessorCount
        quiet = arguments.flag("--quiet")
        json = arguments.flag("--json")
        strict = arguments.flag("--strict")
        report = arguments.flag("--report")
        let positionals = try arguments.positionals()
        guard let folder = positionals.first else { throw UsageError("Missing expected argument '<dir>'") }
        guard positionals.count == 1 else { throw UsageError("Unexpected argument '\(positionals[1])'") }
        switch try StoreLocation(folder) {
        case .folder:
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory),
                isDirectory.boolValue
            else {
                throw UsageError("The folder '\(folder)' does not exist or is not a directory")
            }
            let walked = URL(fileURLWithPath: folder).resolvingSymlinksInPath().path
            // A folder inside the walked one is left out of the walk; the walked one itself cannot be, and the
            // run would process its own manifest, which changes under every run.
            guard URL(fileURLWithPath: output).standardizedFileURL.resolvingSymlinksInPath().path != walked
            else {
                throw UsageError(
                    "The output folder '\(output)' is the folder walked; give --out a folder of its own "
                        + "(one inside it is left out of the walk)")
            }
            self.folder = .folder(walked)
        case let location:
            self.folder = location
        }
        bucket = try BucketDeclarationFile.read(bucketPath)
    }

    package func run() async throws -> ExitStatus {
        let outputURL = URL(fileURLWithPath: output).standardizedFileURL
        let manifestPath = outputURL.appendingPathComponent("manifest.jsonl").path
        let quarantineFile = quarantine ?? outputURL.appendingPathComponent("quarantine.sqlite3").path
        let manifest: ManifestWriter
        let earlier: ManifestReader.Contents
        let environment = ProcessInfo.processInfo.environment
        let objects = try folder.objects(environment: environment)
        let renditionLocation = renditions ?? .folder(outputURL.appendingPathComponent("renditions").path)
        let renditions: any RenditionStore
        do {
            try FileManager.default.createDirectory(at: outputURL, withIntermediateDirectories: true)
            (manifest, earlier) = try ManifestWriter.open(manifestPath)
            renditions = try renditionLocation.renditions(environment: environment)
            _ = try Quarantine(file: quarantineFile)
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
                let name = number == SignalStream.interrupt ? "Ctrl-C" : "SIGTERM"
                progress.notice("\(name): finishing the files in flight; press Ctrl-C again to quit now")
            },
            onSecond: { number in
                manifest.whileNotWriting { ExitStatus(stoppedBy: number).endProcess() }
            })
        let pool = PipelinePool(
            .init(executable: Executable.current, size: jobs, quarantineFile: quarantineFile),
            objects: objects,
            renditions: renditions)
        let source: BatchSource
        switch folder {
        case .folder(let path):
            var excluded = [outputURL.resolvingSymlinksInPath().path]
            // Opened above, so there to be resolved; its companions come and go beside it.
            excluded += Quarantine.files(
                of: URL(fileURLWithPath: quarantineFile).resolvingSymlinksInPath().path)
            if case .folder(let store) = renditionLocation {
                excluded.append(URL(fileURLWithPath: store).resolvingSymlinksInPath().path)
            }
            source = .folder(path, excluded: Set(excluded))
        case .bucket(let location):
            var excluded: [String] = []
            if case .bucket(let store) = renditionLocation, store.bucket == location.bucket,
                !store.prefix.isEmpty
            {
                excluded.append(store.listPrefix)
            }
            source = .bucket(try StoreLocation.client(environment), location, excluded: excluded)
        }
        let fingerprint = try DeclarationFingerprint.of(bucket)
        progress.update { $0.recorded = earlier.doneByDeclaration[fingerprint] ?? 0 }
        let batch = BatchRun(
            source: source, objects: objects, bucket: bucket, fingerprint: fingerprint, jobs: jobs,
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
        if report {
            let run = ContactSheet.Run(
                seconds: summary.seconds, processed: summary.processed, skipped: summary.skipped,
                interrupted: summary.interrupted)
            var sheet = ContactSheet(
                output: outputURL.path, html: outputURL.appendingPathComponent("report.html").path, run: run)
            if case .folder(let folder) = renditionLocation { sheet.renditions = folder }
            let written = ReportCommand.write(sheet, announce: quiet ? { _ in } : Console.error)
            if written != .success { return written }
        }
        return status(tally, signal: signals.received)
    }

    private func status(_ tally: BatchTally, signal: Int32?) -> ExitStatus {
        if let signal { return ExitStatus(stoppedBy: signal) }
        if let cause = tally.unlistedCause { return cause.exitStatus }
        if strict && (tally.unreadable + tally.skippedFailures + tally.allErrors > 0) { return .failure }
        if tally.retryable > 0 { return .temporaryFailure }
        return .success
    }
}
