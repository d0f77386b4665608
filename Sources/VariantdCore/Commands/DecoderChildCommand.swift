import Foundation
import Variants

/// `variantd decoder-child`: the process a `DecoderPool` starts. Reads one `DecodeJob` per line on stdin and
/// answers one `DecodeAnswer` per line, until stdin closes (which also happens when the parent dies).
struct DecoderChildCommand: Subcommand {
    static let name = "decoder-child"
    static let abstract = "Decode objects sent by a parent process (internal)."
    static let usage = "decoder-child [--limits <json>]"
    static let details = """
        Started by variantd itself: one JSON job per line on stdin, one JSON answer per line on stdout.

        OPTIONS:
          --limits <json>         The limits to apply, as JSON.
        """

    let limits: Limits

    init(parsing arguments: inout Arguments) throws(UsageError) {
        let text = try arguments.option("--limits")
        _ = try arguments.positionals()
        guard let text else {
            limits = .default
            return
        }
        guard let limits = try? WireJSON.decode(Limits.self, from: text.utf8) else {
            throw UsageError("'--limits' is not valid limits JSON")
        }
        self.limits = limits
    }

    func run() async throws -> ExitStatus {
        let answers = ChildConfinement.apply()
        let pipeline = try Pipeline(limits: limits)
        while let line = readLine() {
            ChildConfinement.startJobBudget()
            var timings = StageTimings()
            let outcome = Result { () throws(VariantsError) in try process(line, with: pipeline, timings: &timings) }
            let answer = try WireJSON.encode(
                DecodeAnswer(outcome, timings: timings, peakResidentKiB: ChildConfinement.peakResidentKiB))
            ChildConfinement.write(answer + [0x0A], to: answers)
        }
        return .success
    }

    private func process(_ line: String, with pipeline: Pipeline, timings: inout StageTimings)
        throws(VariantsError) -> CompletionMetadata
    {
        let job: DecodeJob
        do {
            job = try WireJSON.decode(DecodeJob.self, from: line.utf8)
        } catch {
            throw VariantsError(.invalidRequest, "the job line is not valid: \(error)")
        }
        var pipeline = pipeline
        pipeline.store = try job.storeRoot.map { root throws(VariantsError) in try RenditionStore(root: root) }
        let bucket = try job.bucketDeclaration.map { text throws(VariantsError) in try BucketSpec(parsing: text.utf8) }
        let bytes = try timings.measure("read") { () throws(VariantsError) in
            try SourceFile.read(job.sourcePath, maxBytes: limits.maxInputBytes)
        }
        return try pipeline.process(bytes, request: job.request, bucket: bucket, timings: &timings)
    }
}
