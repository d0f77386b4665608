import Foundation
public import Variants

/// A pool of decoder child processes: every object is decoded in a child, so an abort or a crash inside
/// a C decoder costs one answer, never the caller's process.
///
/// Each child handles one job at a time, so a death is attributable to its file. A dead or overdue child is
/// replaced on the next job.
public actor DecoderPool {
    public struct Configuration: Sendable {
        /// The `variantd` binary the children run (`variantd decoder-child`).
        public var executable: String
        public var size: Int
        /// Hard wall-clock limit per object, after which the child is killed.
        public var deadline: Duration
        /// A child is replaced after this many jobs, bounding what a slow leak in a C library can cost.
        public var jobsPerChild: Int
        public var limits: Limits

        public init(
            executable: String, size: Int = 2, deadline: Duration = .seconds(60), jobsPerChild: Int = 500,
            limits: Limits = .default
        ) {
            self.executable = executable
            self.size = size
            self.deadline = deadline
            self.jobsPerChild = jobsPerChild
            self.limits = limits
        }
    }

    /// One result of the pool: the outcome and its stage timings.
    public struct Answer: Sendable {
        public var outcome: Result<CompletionMetadata, VariantsError>
        public var timings: StageTimings
    }

    private let configuration: Configuration
    private var idle: [DecoderSlot] = []
    private var created = 0
    private var waiting: [CheckedContinuation<DecoderSlot, Never>] = []
    /// Children that died or were killed, for metrics.
    public private(set) var crashes = 0

    public init(_ configuration: Configuration) {
        self.configuration = configuration
    }

    /// Decodes one object in a child.
    public func process(_ job: DecodeJob) async -> Answer {
        let slot = await checkOut()
        let configuration = configuration
        let answer = await withCheckedContinuation { continuation in
            slot.queue.async {
                continuation.resume(returning: slot.run(job, configuration: configuration))
            }
        }
        if case .failure(let error) = answer.outcome,
            error.reason == .decoderCrash || error.reason == .decoderTimeout
        {
            crashes += 1
        }
        checkIn(slot)
        return answer
    }

    /// Ends every idle child; call when no job is in flight.
    public func shutdown() {
        for slot in idle { slot.queue.sync { slot.stop() } }
        idle.removeAll()
    }

    private func checkOut() async -> DecoderSlot {
        if let slot = idle.popLast() { return slot }
        if created < configuration.size {
            created += 1
            return DecoderSlot()
        }
        return await withCheckedContinuation { waiting.append($0) }
    }

    private func checkIn(_ slot: DecoderSlot) {
        if waiting.isEmpty {
            idle.append(slot)
        } else {
            waiting.removeFirst().resume(returning: slot)
        }
    }
}

/// One place in the pool: a serial queue for the blocking pipe I/O and the child currently behind it.
///
/// `@unchecked Sendable` because the pool hands a slot to exactly one job at a time and every access to
/// `child` happens on `queue`.
final class DecoderSlot: @unchecked Sendable {
    let queue = DispatchQueue(label: "variantd.decoder")
    private var child: ChildProcess?
    private var jobs = 0

    func run(_ job: DecodeJob, configuration: DecoderPool.Configuration) -> DecoderPool.Answer {
        let started = ContinuousClock.now
        var processID: Int32?
        do {
            let child = try current(configuration)
            processID = child.processID
            jobs += 1
            let reply = try child.exchange(try WireJSON.encode(job), deadline: started + configuration.deadline)
            let answer = try WireJSON.decode(DecodeAnswer.self, from: reply)
            if jobs >= configuration.jobsPerChild { stop() }
            return DecoderPool.Answer(outcome: answer.outcome, timings: answer.timings)
        } catch {
            child = nil
            if let processID, let root = job.storeRoot {
                (try? RenditionStore(root: root))?.removeLeftovers(of: processID)
            }
            var timings = StageTimings()
            timings.add("decode", started.duration(to: .now))
            return DecoderPool.Answer(outcome: .failure(Self.failure(error, configuration)), timings: timings)
        }
    }

    /// What a child's failure means for the object it was working on.
    private static func failure(_ error: any Error, _ configuration: DecoderPool.Configuration) -> VariantsError {
        switch error {
        case ChildProcess.Failure.timedOut:
            return .unreadable(.decoderTimeout, "decoding took longer than \(configuration.deadline)")
        case ChildProcess.Failure.died(let signal, let status):
            let how = signal.map { "signal \($0)" } ?? "exit status \(status ?? -1)"
            return .unreadable(.decoderCrash, "the decoder process died (\(how)) on this file")
        default:
            return VariantsError(.internalError, "the decoder process failed: \(error)")
        }
    }

    func stop() {
        child?.terminate()
        child = nil
        jobs = 0
    }

    private func current(_ configuration: DecoderPool.Configuration) throws -> ChildProcess {
        if let child, child.isRunning { return child }
        jobs = 0
        let limits = try WireJSON.line(configuration.limits)
        let started = try ChildProcess(
            executable: configuration.executable, arguments: ["decoder-child", "--limits", limits])
        child = started
        return started
    }
}
