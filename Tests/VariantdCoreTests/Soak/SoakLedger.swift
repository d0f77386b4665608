import Foundation
import Synchronization

/// Every request a soak sent and what became of it, so that nothing goes unaccounted: answered as allowed
/// (done, or refused with a typed answer), or listed as unexpected with what came back.
final class SoakLedger: Sendable {
    /// An asynchronous job the daemon committed (`202`): the queue's id and the sample its object holds.
    struct AcceptedJob: Sendable {
        var id: Int64
        var source: String
    }

    private struct State {
        var answers: [String: Int] = [:]
        var unexpected: [String] = []
        var accepted: [AcceptedJob] = []
    }

    private let state = Mutex(State())

    /// Counts an answer under `kind`, `status` and `code` (`ok` for a success), and keeps it for the report
    /// when it is not among those the kind allows.
    func record(_ kind: String, status: Int, code: String?, allowed: Bool, detail: @autoclosure () -> String)
    {
        let key = "\(kind) \(status) \(code ?? "ok")"
        let note = allowed ? nil : "\(key): \(detail().prefix(300))"
        state.withLock { state in
            state.answers[key, default: 0] += 1
            // The first few tell what went wrong; the count says how often.
            if let note, state.unexpected.count < 20 { state.unexpected.append(note) }
        }
    }

    func accept(_ job: AcceptedJob) {
        state.withLock { $0.accepted.append(job) }
    }

    var answers: [String: Int] { state.withLock { $0.answers } }
    /// The first of the answers no kind allows.
    var unexpected: [String] { state.withLock { $0.unexpected } }
    var accepted: [AcceptedJob] { state.withLock { $0.accepted } }

    /// Answers of one kind, all statuses together.
    func count(of kind: String) -> Int {
        answers.filter { $0.key.hasPrefix(kind + " ") }.values.reduce(0, +)
    }
}
