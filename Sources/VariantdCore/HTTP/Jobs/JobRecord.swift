import Variants

/// What one `POST /v1/jobs` came to: logged as one JSON line on stderr and counted in the metrics.
struct JobRecord: Sendable, Encodable {
    enum Outcome: String, Sendable, Encodable {
        /// Metadata answered (and renditions written).
        case ok
        /// The job ran and ended in a typed error (an unreadable picture, a type the bucket refuses, …).
        case failed
        /// Refused before running: authorization, validation, or no free slot.
        case rejected
    }

    let event = "job"
    var id: String?
    var bucket: String?
    var path: String?
    var outcome: Outcome
    /// `ok`, or the error code.
    var code: String
    var status: Int
    /// Seconds per stage (read, hash, sniff, probe, decode, thumbhash, write), rendering and encoding per
    /// variant (`render.thumb`, `encode.thumb`).
    var durations: [String: Double]
    /// The same per `Stage`, variants added up: what the metrics count, with labels from a fixed set.
    var stages: [Stage: Double]
    /// Seconds from admission to answer, waiting for a slot included.
    var seconds: Double
    var bytesIn: Int
    var bytesOut: Int

    private enum CodingKeys: String, CodingKey {
        case event, id, bucket, path, outcome, code, status, durations, seconds, bytesIn, bytesOut
    }

    /// Seconds to the microsecond: finer digits are noise in a log line.
    private static func microseconds(_ seconds: Double) -> Double {
        (seconds * 1e6).rounded() / 1e6
    }

    init(request: JobRequest?, error: AnswerError) {
        id = request?.id
        bucket = request?.object.bucket
        path = request?.object.path
        outcome = .rejected
        code = error.code
        status = error.statusCode
        durations = [:]
        stages = [:]
        seconds = 0
        bytesIn = 0
        bytesOut = 0
    }

    init(request: JobRequest, answer: PipelineAnswer, seconds: Double) {
        id = request.id
        bucket = request.object.bucket
        path = request.object.path
        durations = answer.timings.seconds.mapValues(Self.microseconds)
        stages = answer.timings.byStage
        self.seconds = Self.microseconds(seconds)
        switch answer.outcome {
        case .success(let metadata):
            outcome = .ok
            code = "ok"
            status = 200
            bytesIn = metadata.size
            bytesOut = metadata.renditions?.values.reduce(0) { $0 + $1.size } ?? 0
        case .failure(let error):
            let answered = AnswerError(error)
            outcome = .failed
            code = answered.code
            status = answered.statusCode
            bytesIn = 0
            bytesOut = 0
        }
    }
}
