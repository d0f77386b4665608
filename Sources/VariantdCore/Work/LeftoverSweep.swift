/// The walk behind a worker's leftover reports (final jobs whose worker died between finishing and
/// reporting, or whose receiver refused them): a page of the unreported jobs per step, from a cursor it
/// keeps, starting again from the oldest once a page comes back short. A job the receiver keeps refusing
/// is tried once per pass, and the jobs after it still get their turn.
struct LeftoverSweep {
    /// Unreported jobs read per step.
    static let page = 20

    let queue: any JobQueue
    /// Jobs finished more recently than this are still their own worker's to report.
    let age: Duration
    private var cursor = UnreportedCursor.oldest

    init(queue: any JobQueue, age: Duration) {
        self.queue = queue
        self.age = age
    }

    /// The next jobs due for a report, oldest first.
    mutating func next() async throws(QueueError) -> [Job] {
        let jobs = try await queue.unreported(after: cursor, limit: Self.page)
        let cutoff = Timestamp.now.adding(.zero - age)
        let due = jobs.prefix { ($0.finishedAt ?? .now) < cutoff }
        // A short page, or one reaching jobs too young, ends the pass.
        let last = due.count == Self.page ? due.last.flatMap(UnreportedCursor.init(after:)) : nil
        cursor = last ?? .oldest
        return Array(due)
    }
}
