import Foundation
import FoundationNetworking
import VariantdCore

/// Posts W1 jobs to the benchmark's daemon over real HTTP on loopback, with Foundation's `URLSession`
/// (libcurl underneath), from a number of clients at once, each waiting for its answer before its next job.
struct LoadClient: Sendable {
    let base: URL
    let secret: String

    /// One stored object to post: its `source` in the daemon's root and the original file, for reports.
    struct Job: Sendable {
        var source: String
        var file: String
    }

    /// The daemon's answer to one job.
    struct Answer: Sendable {
        var file: String
        /// The HTTP status; nil when no answer came (connection refused, timeout).
        var status: Int?
        var seconds: Double
        /// Displayed megapixels of a 200 answer.
        var megapixels: Double
        /// The error's message, or what went wrong on the way.
        var message: String
        /// The `Retry-After` header, when the answer had one.
        var retryAfter: String? = nil
    }

    /// Every job posted once, client `c` taking jobs c, c + clients, …; the answers in no particular order,
    /// and the wall-clock seconds of the whole batch.
    func post(_ jobs: [Job], clients: Int, label: String) async -> (answers: [Answer], seconds: Double) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = clients
        // Far beyond the daemon's 60 s per-job deadline plus a full queue's wait: every request ends.
        configuration.timeoutIntervalForRequest = 600
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        let start = ContinuousClock.now
        let answers = await withTaskGroup(of: [Answer].self) { group in
            for client in 0..<min(clients, jobs.count) {
                group.addTask {
                    var answers: [Answer] = []
                    for index in stride(from: client, to: jobs.count, by: clients) {
                        answers.append(await send(jobs[index], id: "\(label)-\(index)", session: session))
                    }
                    return answers
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        return (answers, (ContinuousClock.now - start) / .seconds(1))
    }

    /// How many jobs `offer` starts: a fixed number, so that a sender that falls behind its schedule on a
    /// busy machine catches up rather than offering fewer jobs than the report says.
    static func offeredCount(perSecond: Double, for duration: Duration) -> Int {
        Int(perSecond * (duration / .seconds(1)))
    }

    /// Open loop: starts one job every 1/`perSecond` s for `duration`, whatever the answers, through at
    /// most `clients` connections (further requests wait in the session for a free one, and that wait
    /// counts in their time). Jobs are taken round-robin; returns every answer.
    func offer(_ jobs: [Job], perSecond: Double, for duration: Duration, clients: Int, label: String) async
        -> [Answer]
    {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = clients
        configuration.timeoutIntervalForRequest = 600
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        guard !jobs.isEmpty, perSecond > 0 else { return [] }
        let start = ContinuousClock.now
        let interval = Duration.seconds(1 / perSecond)
        return await withTaskGroup(of: Answer.self) { group in
            for index in 0..<Self.offeredCount(perSecond: perSecond, for: duration) {
                try? await Task.sleep(until: start + interval * index)
                let job = jobs[index % jobs.count]
                group.addTask { await send(job, id: "\(label)-\(index)", session: session) }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
    }

    private func send(_ job: Job, id: String, session: URLSession) async -> Answer {
        struct Body: Encodable {
            var id, bucket, path, source: String
        }
        struct Reply: Decodable {
            var width: Int?
            var height: Int?
            var message: String?
        }
        var request = URLRequest(url: base.appendingPathComponent("v1/jobs"))
        request.httpMethod = "POST"
        request.setValue("Bearer " + secret, forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let name = (job.file as NSString).lastPathComponent
        let start = ContinuousClock.now
        do {
            request.httpBody = Data(
                try WireJSON.encode(
                    Body(id: id, bucket: BenchDaemon.bucket, path: "load/" + name, source: job.source)))
            let (data, response) = try await session.data(for: request)
            let seconds = (ContinuousClock.now - start) / .seconds(1)
            let status = (response as? HTTPURLResponse)?.statusCode
            let reply = try? WireJSON.decode(Reply.self, from: data)
            let megapixels = Double((reply?.width ?? 0) * (reply?.height ?? 0)) / 1e6
            return Answer(
                file: job.file, status: status, seconds: seconds, megapixels: status == 200 ? megapixels : 0,
                message: reply?.message ?? String(decoding: data.prefix(200), as: UTF8.self),
                retryAfter: (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Retry-After"))
        } catch {
            return Answer(
                file: job.file, status: nil, seconds: (ContinuousClock.now - start) / .seconds(1),
                megapixels: 0,
                message: "\(error)")
        }
    }
}
