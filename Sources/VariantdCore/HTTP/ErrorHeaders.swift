/// The headers an error answer carries beside its body: `WWW-Authenticate` with a `401`, and with a
/// `503 transform_busy` a `Retry-After` of the seconds until a slot is likely free (the backlog ahead at the
/// mean job time over the slots, in 1…60).
struct ErrorHeaders: Sendable {
    let admission: Admission
    let metrics: ServerMetrics

    func headers(_ error: AnswerError) -> [(name: String, value: String)] {
        if case .service(let refusal) = error, refusal.code == .unauthorized {
            return [("WWW-Authenticate", "Bearer")]
        }
        return error.isBusy ? [("Retry-After", String(retryAfter))] : []
    }

    private var retryAfter: Int {
        let snapshot = admission.snapshot
        let mean = metrics.meanJobSeconds ?? 1
        let backlog = Double(snapshot.running + snapshot.queued) * mean / Double(admission.slots)
        return min(60, max(1, Int(backlog.rounded(.up))))
    }
}
