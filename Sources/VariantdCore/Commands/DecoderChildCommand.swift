import Foundation
import Variants

/// `variantd decoder-child`: the process a `DecoderPool` starts. Reads one `DecodeJob` per line on stdin and
/// answers one `DecodeAnswer` per line, until stdin closes (which also happens when the parent dies).
struct DecoderChildCommand: Subcommand {
    static let name = "decoder-child"
    static let abstract = "Decode objects sent by a parent process (internal)."
    static let usage = "decoder-child [--limits <json>] [--confined]"
    static let details = """
        Started by variantd itself: one JSON job per line on stdin, one JSON answer per line on stdout.

        OPTIONS:
          --limits <json>         The limits to apply, as JSON.
          --confined              Seal the process after start-up: no new privileges, no filesystem,
                                  a system-call allow-list (exit status 78 when the kernel refuses).
        """

    let limits: Limits
    let confined: Bool
    /// Tests only (`--violate open|socket`): a call the sealed child makes before each job, to prove it dies.
    let violation: ConfinementViolation?

    init(parsing arguments: inout Arguments) throws(UsageError) {
        let text = try arguments.option("--limits")
        confined = arguments.flag("--confined")
        let violation = try arguments.option("--violate")
        _ = try arguments.positionals()
        if let violation {
            guard let parsed = ConfinementViolation(rawValue: violation) else {
                throw UsageError("'--violate' takes open or socket")
            }
            self.violation = parsed
        } else {
            self.violation = nil
        }
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
        if confined {
            do {
                try ChildConfinement.seal()
            } catch {
                Console.error("variantd decoder-child: cannot confine itself: \(error)")
                return .configuration
            }
        }
        while let line = readLine() {
            violation?.attempt()
            ChildConfinement.startJobBudget()
            var timings = StageTimings()
            let outcome = Result { () throws(VariantsError) in try process(line, with: pipeline, timings: &timings) }
            let answer = try WireJSON.encode(
                DecodeAnswer(outcome, timings: timings, peakResidentKiB: ChildConfinement.peakResidentKiB))
            ChildConfinement.returnMemory()
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
