import Foundation

/// `variantd report OUT [--html FILE]`: a batch output folder as one self-contained HTML page to look at.
package struct ReportCommand: Subcommand {
    package static let name = "report"
    package static let abstract = "Write a batch output folder's contact sheet: one self-contained HTML page."
    package static let usage = "report <out> [--html <file>]"
    package static let details = """
        ARGUMENTS:
          <out>                   A `variantd batch` output folder (manifest.jsonl and renditions/).

        OPTIONS:
          --html <file>           Where the page goes (default: <out>/report.html). Renditions are linked
                                  by paths relative to it, so keep it where it can reach <out>/renditions.

        The page holds a summary (objects by outcome, bytes in and out), the failed files grouped by error
        code and reason with their messages, the files of a type the bucket does not take (unsupported:
        results, not failures), and every object: path, type, size, dimensions, its ThumbHash placeholder
        decoded into an inline PNG, and each rendition shown at its real size up to 256 pixels, with its
        format, size and bytes. Images load lazily; no script runs and nothing is fetched from the network.
        The manifest is read in two streaming passes, so memory does not grow with the lines' length, and a
        path's last line is the one shown.
        """

    let output: String
    let html: String?

    package init(parsing arguments: inout Arguments) throws(UsageError) {
        html = try arguments.option("--html")
        let operands = try arguments.positionals()
        guard let output = operands.first else { throw UsageError("Missing expected argument '<out>'") }
        guard operands.count == 1 else { throw UsageError("Unexpected argument '\(operands[1])'") }
        self.output = output
    }

    package func run() async throws -> ExitStatus {
        let folder = URL(fileURLWithPath: output).standardizedFileURL.path
        let sheet = ContactSheet(
            output: folder,
            html: URL(fileURLWithPath: html ?? folder + "/report.html").standardizedFileURL.path, run: nil)
        guard FileManager.default.fileExists(atPath: sheet.manifestPath) else {
            Console.error(
                "Error: \(sheet.manifestPath) does not exist; is '\(output)' a batch output folder?")
            return .noInput
        }
        return Self.write(sheet, announce: Console.out)
    }

    /// Writes the page and says where it is; shared with `batch --report`, which says it on stderr so
    /// that `--json` keeps stdout to its summary.
    static func write(_ sheet: ContactSheet, announce: (String) -> Void) -> ExitStatus {
        do {
            let totals = try sheet.write()
            // As the batch counts them: an unsupported type is not a failure.
            let failed = totals.unreadable + totals.errors
            announce(
                "Report: \(sheet.html) (\(totals.objects) objects, \(failed) failed, "
                    + "\(totals.unsupported) unsupported)")
            return .success
        } catch {
            Console.error("Error: the report \(sheet.html) cannot be written: \(error)")
            return .ioError
        }
    }
}
