import Foundation
import Variants

/// `variantd probe FILE…`: one metadata JSON line per file (or its error JSON), for checking files by hand.
package struct ProbeCommand: Subcommand {
    package static let name = "probe"
    package static let abstract = "Print the completion metadata of files, one JSON line each."
    package static let usage =
        "probe [--bucket <name>] [--declaration <file>] [--out <dir>] [--content-type <type>] [--in-process] <file> ..."
    package static let details = """
        ARGUMENTS:
          <file>                  Files to sniff, probe, decode and measure.

        OPTIONS:
          --bucket <name>         The bucket name reported in the metadata (default: local, or the
                                  declaration's name).
          --declaration <file>    A bucket declaration (JSON): its policy applies and its variants are
                                  rendered and checked.
          --out <dir>             Keep the renditions in this rendition store (default: not kept).
          --content-type <type>   The type a client declared, used only when the bytes cannot say.
          --in-process            Decode in this process instead of a decoder child (a crash in a
                                  C decoder then ends the command).
          -h, --help              Show help information.

        Each line is the completion metadata, or {"statusCode", "error", "reason", "message"}. The exit
        status is 0 when every file was read, unreadable pictures included; 66 when a file is missing.
        """

    let files: [String]
    let bucket: String
    let declaration: BucketDeclaration?
    let renditions: String?
    let declaredType: String?
    let inProcess: Bool

    package init(parsing arguments: inout Arguments) throws(UsageError) {
        let name = try arguments.option("--bucket")
        declaration = try arguments.option("--declaration").map { path throws(UsageError) in
            try BucketDeclarationFile.read(path)
        }
        bucket = name ?? declaration?.name ?? "local"
        renditions = try arguments.option("--out")
        declaredType = try arguments.option("--content-type")
        inProcess = arguments.flag("--in-process")
        files = try arguments.positionals()
        guard !files.isEmpty else { throw UsageError("Missing expected argument '<file>'") }
    }

    package func run() async throws -> ExitStatus {
        let store = try renditions.map { try RenditionFolder(root: $0) }
        // Files are named on the command line, relative to here or absolute: the object store is the root.
        let pool = PipelinePool(
            .init(executable: Executable.current, size: 1), objects: try ObjectFolder("/"), renditions: store)
        let pipeline = try inProcess ? Pipeline(store: store) : nil
        var status = ExitStatus.success
        for file in files {
            let request = ObjectRequest(bucket: bucket, path: file, declaredContentType: declaredType)
            let outcome: Result<CompletionMetadata, VariantsError>
            if let pipeline {
                var timings = StageTimings()
                outcome = Result { () throws(VariantsError) in
                    let bytes = try SourceFile.read(file, maxBytes: pipeline.limits.maxInputBytes)
                    return try pipeline.run(
                        RenditionOrder(request, bucket: declaration), bytes: bytes, timings: &timings)
                }
            } else {
                let key = String(URL(fileURLWithPath: file).standardizedFileURL.path.dropFirst())
                outcome = await pool.fulfil(RenditionOrder(request, bucket: declaration), from: .stored(key))
                    .outcome
            }
            switch outcome {
            case .success(let metadata):
                Console.out(try WireJSON.line(metadata))
            case .failure(let error):
                if error.code == .notFound { status = .noInput }
                Console.out(try WireJSON.line(error))
            }
        }
        await pool.shutdown()
        return status
    }
}
