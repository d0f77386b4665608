import Foundation
import Variants

/// `variantd decoder-child`: the process a `PipelinePool` starts. Reads one `PipelineJob` line and the bytes
/// after it on stdin, answers one `PipelineAnswer` line and the rendition bytes after it, until stdin closes
/// (which also happens when the parent dies). It opens no file: bytes in, bytes out.
package struct DecoderChildCommand: Subcommand {
    package static let name = "decoder-child"
    package static let isHidden = true
    package static let abstract = "Decode objects sent by a parent process (internal)."
    package static let usage = "decoder-child [--limits <json>] [--confined]"
    package static let details = """
        Started by variantd itself: one JSON job line and the object's bytes on stdin, one JSON answer
        line and the renditions' bytes on stdout.

        OPTIONS:
          --limits <json>         The limits to apply, as JSON.
          --confined              Seal the process after start-up: no new privileges, no filesystem,
                                  a system-call allow-list (exit status 78 when the kernel refuses).
        """

    let limits: Limits
    let confined: Bool
    #if DEBUG
        /// Debug builds only, for the tests (`--violate open|read|socket`): a call the sealed child makes
        /// before each job, to prove the seal holds. A release build, the one installed, has no such option.
        let violation: ConfinementViolation?
    #endif

    package init(parsing arguments: inout Arguments) throws(UsageError) {
        let text = try arguments.option("--limits")
        confined = arguments.flag("--confined")
        #if DEBUG
            violation = try Self.violation(arguments.option("--violate"))
        #endif
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

    #if DEBUG
        private static func violation(_ text: String?) throws(UsageError) -> ConfinementViolation? {
            guard let text else { return nil }
            guard let violation = ConfinementViolation(rawValue: text) else {
                throw UsageError("'--violate' takes open, read or socket")
            }
            return violation
        }
    #endif

    package func run() async throws -> ExitStatus {
        let answers = try ChildConfinement.apply()
        let pipeline = try Pipeline(limits: limits)
        if confined {
            DecoderWarmUp.run(pipeline)
            do {
                try ChildConfinement.seal()
            } catch {
                Console.error("variantd decoder-child: cannot confine itself: \(error)")
                return .configuration
            }
        }
        let input = ChildInput()
        while let line = input.line() {
            #if DEBUG
                violation?.attempt()
            #endif
            do {
                try ChildConfinement.startJobBudget()
            } catch {
                // Unbudgeted, a job could spin in C past every deadline: no job runs without one.
                Console.error("variantd decoder-child: cannot set its CPU budget: \(error)")
                return .configuration
            }
            let job: PipelineJob
            do {
                job = try WireJSON.decode(PipelineJob.self, from: line)
            } catch {
                // What follows the line cannot be told apart from the next job: answer, then stop.
                let refusal = VariantsError(.invalidRequest, "the job line is not valid: \(error)")
                reply(PipelineAnswer(.failure(refusal), timings: StageTimings()), files: [], to: answers)
                return .failure
            }
            guard let source = input.bytes(job.sourceSize) else { return .failure }
            var stored: [RenditionFile] = []
            for part in job.stored {
                guard let bytes = input.bytes(part.size) else { return .failure }
                stored.append(RenditionFile(key: part.key, bytes: bytes))
            }
            let store = HandedRenditions(stored)
            var timings = StageTimings()
            var rendering = pipeline
            rendering.store = store
            let outcome = Result { () throws(VariantsError) in
                try rendering.run(job.order, bytes: source, timings: &timings)
            }
            let files = (try? outcome.get()).map { _ in store.written } ?? []
            let answer = PipelineAnswer(
                outcome, timings: timings, peakResidentKiB: ResourceUsage.peakResidentKiB)
            ChildConfinement.returnMemory()
            reply(answer, files: files, to: answers)
        }
        return .success
    }

    /// Writes the reply line, then the bytes of each file it lists.
    private func reply(_ answer: PipelineAnswer, files: [RenditionFile], to descriptor: FileDescriptor) {
        let parts = files.map { PipelinePart(key: $0.key, size: $0.bytes.count) }
        guard let line = try? WireJSON.encode(PipelineReply(answer: answer, written: parts)) else {
            ExitStatus.failure.endProcess()
        }
        ChildConfinement.write(line + [0x0A], to: descriptor)
        for file in files { ChildConfinement.write(file.bytes, to: descriptor) }
    }
}
