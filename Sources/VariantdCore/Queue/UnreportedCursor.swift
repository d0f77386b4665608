/// Where a walk through the unreported final jobs stands, in their (finished_at, id) order: just after the
/// job that finished at `finishedAt` with `id`. A walk that keeps it resumes where it stopped, so a job the
/// receiver keeps refusing never hides the jobs after it.
public struct UnreportedCursor: Sendable, Hashable {
    public var finishedAt: Timestamp
    public var id: Int64

    public init(finishedAt: Timestamp, id: Int64) {
        self.finishedAt = finishedAt
        self.id = id
    }

    /// Just after `job`; nil for a job that is not final.
    public init?(after job: Job) {
        guard let finishedAt = job.finishedAt else { return nil }
        self.init(finishedAt: finishedAt, id: job.id)
    }

    /// Before every job: finish times come from the database's clock, never before 1970.
    public static let oldest = UnreportedCursor(finishedAt: Timestamp(milliseconds: 0), id: 0)
}
