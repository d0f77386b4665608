import Foundation
public import Variants

/// A pool of decoder child processes: every object is decoded in a child, so an abort or a crash inside
/// a C decoder costs one answer, never the caller's process.
///
/// Each child handles one job at a time, so a death is attributable to its file. A dead or overdue child is
/// replaced on the next job. A crash or a timeout is tried once more in a fresh child (decoder faults can
/// depend on load, so one death does not condemn a file); a file that fails every attempt is quarantined by
/// its SHA-256 and refused on sight afterwards.
public actor DecoderPool {
    public struct Configuration: Sendable {
        /// The `variantd` binary the children run (`variantd decoder-child`).
        public var executable: String
        public var size: Int
        /// Hard wall-clock limit per object, after which the child is killed.
        public var deadline: Duration
        /// A child is replaced after this many jobs, bounding what a slow leak in a C library can cost.
        public var jobsPerChild: Int
        /// Attempts per object when children crash or overrun; the durable queue counts its own attempts
        /// and sets 1.
        public var attemptsPerObject: Int
        public var limits: Limits

        public init(
            executable: String, size: Int = 2, deadline: Duration = .seconds(60), jobsPerChild: Int = 500,
            attemptsPerObject: Int = 2, limits: Limits = .default
        ) {
            self.executable = executable
            self.size = size
            self.deadline = deadline
            self.jobsPerChild = jobsPerChild
            self.attemptsPerObject = attemptsPerObject
            self.limits = limits
        }
    }

    private let configuration: Configuration
    private let objects: any ObjectStore
    private let renditions: (any RenditionStore)?
    private var idle: [DecoderSlot] = []
    private var created = 0
    private var waiting: [CheckedContinuation<DecoderSlot, Never>] = []
    private var quarantine = Quarantine()
    /// Children that died or were killed, for metrics.
    public private(set) var crashes = 0

    /// A pool that reads sources from `objects` and keeps renditions in `renditions` (nil renders and
    /// checks them without keeping them).
    public init(_ configuration: Configuration, objects: any ObjectStore, renditions: (any RenditionStore)?) {
        self.configuration = configuration
        self.objects = objects
        self.renditions = renditions
    }

    /// Processes the stored object `source` for a bucket: this process reads it and the renditions stored
    /// for its bytes, a child decodes and renders, and this process stores the new renditions before
    /// answering.
    public func process(_ request: ObjectRequest, source: String, bucket: BucketSpec?) async -> DecodeAnswer {
        let slot = await checkOut()
        defer { checkIn(slot) }
        let (objects, renditions, maxBytes) = (objects, renditions, configuration.limits.maxInputBytes)
        let loaded = await slot.perform {
            LoadedObject.load(
                source, request: request, bucket: bucket, from: objects, renditions, maxBytes: maxBytes)
        }
        let object: LoadedObject
        switch loaded {
        case .success(let loaded): object = loaded
        case .failure(let error): return DecodeAnswer(.failure(error), timings: StageTimings())
        }
        if quarantine.isRefused(object.job.sourceChecksum, after: configuration.attemptsPerObject) {
            return DecodeAnswer(
                .failure(.unreadable(.quarantined, "this file killed the decoder before and is refused")),
                timings: object.timings)
        }
        let configuration = configuration
        var answer = await slot.perform { slot.run(object, configuration: configuration) }
        var attempts = 1
        while answer.error?.isDecoderFailure == true {
            crashes += 1
            quarantine.recordFailure(object.job.sourceChecksum)
            guard attempts < configuration.attemptsPerObject else { break }
            attempts += 1
            answer = await slot.perform { slot.run(object, configuration: configuration) }
        }
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
            return DecoderSlot(renditions: renditions)
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

/// An object read by the parent, ready to be sent to a child: the job line and the bytes that follow it.
struct LoadedObject: Sendable {
    var job: DecodeJob
    var source: [UInt8]
    var stored: [RenditionFile]
    /// Reading and hashing, done here rather than in the child.
    var timings: StageTimings

    static func load(
        _ key: String, request: ObjectRequest, bucket: BucketSpec?, from objects: any ObjectStore,
        _ renditions: (any RenditionStore)?, maxBytes: Int
    ) -> Result<LoadedObject, VariantsError> {
        var timings = StageTimings()
        do throws(VariantsError) {
            let source = try timings.measure(.read) { () throws(VariantsError) in
                try objects.read(key, maxBytes: maxBytes)
            }
            let checksum = timings.measure(.hash) { SHA256.hex(source) }
            let specKeys = Set((bucket?.variants ?? []).map(RenditionKey.specKey))
            let stored = timings.measure(.read) {
                renditions.map { $0.stored(sourceChecksum: checksum, specKeys: specKeys) }
            }
            let job = DecodeJob(
                request: request, bucket: bucket, sourceSize: source.count, sourceChecksum: checksum,
                stored: stored?.map { DecodePart(key: $0.key, size: $0.bytes.count) })
            return .success(LoadedObject(job: job, source: source, stored: stored ?? [], timings: timings))
        } catch {
            return .failure(error)
        }
    }
}

/// One place in the pool: a serial queue for the blocking pipe I/O and the child currently behind it.
///
/// `@unchecked Sendable` because the pool hands a slot to exactly one job at a time and every access to
/// `child` happens on `queue`.
final class DecoderSlot: @unchecked Sendable {
    let queue = DispatchQueue(label: "variantd.decoder")
    private let renditions: (any RenditionStore)?
    private var child: ChildProcess?
    private var jobs = 0

    init(renditions: (any RenditionStore)?) {
        self.renditions = renditions
    }

    /// Runs `body` on the slot's queue, off the cooperative threads: it blocks on pipes and files.
    func perform<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: body()) }
        }
    }

    /// Sends the object to the child, reads its answer and the renditions after it, and stores them.
    func run(_ object: LoadedObject, configuration: DecoderPool.Configuration) -> DecodeAnswer {
        let started = ContinuousClock.now
        let deadline = started + configuration.deadline
        var timings = object.timings
        do {
            let child = try current(configuration)
            jobs += 1
            let line = try WireJSON.encode(object.job) + [0x0A]
            try child.send([line, object.source] + object.stored.map(\.bytes), deadline: deadline)
            let reply = try WireJSON.decode(DecodeReply.self, from: try child.line(deadline: deadline))
            var files: [RenditionFile] = []
            for part in reply.written {
                files.append(
                    RenditionFile(key: part.key, bytes: try child.bytes(part.size, deadline: deadline)))
            }
            if jobs >= configuration.jobsPerChild { stop() }
            timings.merge(reply.answer.timings)
            var outcome = reply.answer.outcome
            if case .success = outcome, let renditions, !files.isEmpty {
                do throws(VariantsError) {
                    try timings.measure(.write) { () throws(VariantsError) in try renditions.write(files) }
                } catch {
                    outcome = .failure(error)
                }
            }
            return DecodeAnswer(outcome, timings: timings, peakResidentKiB: reply.answer.peakResidentKiB)
        } catch {
            child = nil
            timings.add(.decode, started.duration(to: .now))
            return DecodeAnswer(.failure(Self.failure(error, configuration)), timings: timings)
        }
    }

    /// What a child's failure means for the object it was working on.
    private static func failure(_ error: any Error, _ configuration: DecoderPool.Configuration)
        -> VariantsError
    {
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
