import Foundation
import Synchronization
import Variants

/// Counts on-demand transforms against their bucket's account's monthly allowance (`TransformAllowance`),
/// remembering what this daemon found counted, so that a hit of a transform counted this month asks the
/// database nothing and is answered on the I/O thread.
final class TransformMeter: Sendable {
    private let allowance: any TransformAllowance
    private let metrics: ServerMetrics
    /// What time it is, for the month a transform counts in: injected so a test can cross months.
    private let clock: @Sendable () -> Date
    /// Transforms counted, by month, account and transform; when full it starts over, which costs one
    /// database look-up per transform.
    private let counted = BoundedMemo<Key, Bool>(capacity: 65_536)
    /// The month now, and the instant it ends: a hit compares one number instead of building a calendar.
    private let current = Mutex<(month: Month, ends: TimeInterval)?>(nil)

    private struct Key: Hashable, Sendable {
        var month: Month
        var transform: Transform
    }

    init(
        allowance: any TransformAllowance, metrics: ServerMetrics,
        clock: @escaping @Sendable () -> Date = Date.init
    ) {
        self.allowance = allowance
        self.metrics = metrics
        self.clock = clock
    }

    /// Whether the transform is known counted this month, from memory alone.
    func isCounted(_ transform: Transform) -> Bool {
        counted[Key(month: month(), transform: transform)] != nil
    }

    /// Counts the transform unless it was counted this month.
    ///
    /// - Throws: `403 plan_feature_locked` past the allowance with overage refused; `503 transform_busy`
    ///   when the database cannot answer (a transform is never served uncounted).
    func count(_ transform: Transform) async throws(AnswerError) {
        let month = month()
        let key = Key(month: month, transform: transform)
        if counted[key] != nil { return }
        let result: TransformCount
        do {
            result = try await allowance.count(
                CountedTransform(
                    account: transform.account, month: month.description, bucket: transform.bucket,
                    transform: transform.object + "?" + transform.specKey))
        } catch {
            throw .service(
                ServiceError(.transformBusy, "the transform allowance cannot be read now: \(error.message)"))
        }
        switch result {
        case .already:
            counted.remember(true, for: key)
        case .counted:
            counted.remember(true, for: key)
            metrics.countTransform(account: transform.account, refused: false)
        case .refused:
            metrics.countTransform(account: transform.account, refused: true)
            throw .service(
                ServiceError(
                    .planFeatureLocked,
                    "account '\(transform.account)' has used this month's transforms; variants and the picture "
                        + "itself are still served"))
        }
    }

    /// One transform of one object, as counted.
    struct Transform: Sendable, Hashable {
        var account: String
        var bucket: String
        /// The object's path in its bucket.
        var object: String
        var specKey: String
    }

    /// The month the clock is in, worked out again only once it has ended.
    private func month() -> Month {
        let now = clock()
        let seconds = now.timeIntervalSince1970
        return current.withLock { current in
            if let current, seconds < current.ends { return current.month }
            let month = Month(now)
            current = (month, month.end.timeIntervalSince1970)
            return month
        }
    }
}
