import Testing
import Variants

@testable import VariantdCore

/// The retry curve and the outcome table, without a database.
@Suite struct JobAttemptPolicyTests {
    private let policy = JobAttemptPolicy()

    @Test(arguments: [(1, 1.0), (2, 16.0), (3, 81.0), (4, 256.0), (5, 300.0), (9, 300.0)])
    func backoffIsAttemptToTheFourthCappedWithTenPercentJitter(attempt: Int, seconds: Double) {
        for _ in 0..<20 {
            let delay = policy.backoff(attempt) / .seconds(1)
            #expect(delay >= seconds * 0.9 - 0.001 && delay <= seconds * 1.1 + 0.001)
        }
    }

    @Test func decidesByOutcome() {
        func disposition(_ error: VariantsError, attempt: Int = 1, crashes: Int = 0)
            -> JobAttemptPolicy.Disposition
        {
            policy.disposition(of: .failure(error), attempt: attempt, maxAttempts: 5, crashes: crashes)
        }
        #expect(disposition(.unreadable(.corrupt, "x")) == .final(.unreadable))
        #expect(disposition(VariantsError(.payloadTooLarge, "x")) == .final(.failed))
        #expect(disposition(VariantsError(.internalError, "x"), attempt: 5) == .final(.discarded))
        guard case .retry = disposition(VariantsError(.internalError, "x"), attempt: 4) else {
            Issue.record("a transient error before the last attempt is not retried")
            return
        }
        for outage in [VariantsError.Code.storeUnavailable, .insufficientStorage] {
            guard case .release = disposition(VariantsError(outage, "x"), attempt: 5) else {
                Issue.record("a store outage (\(outage.rawValue)) spends an attempt")
                return
            }
        }
        guard case .retry = disposition(.unreadable(.decoderCrash, "x"), crashes: 1) else {
            Issue.record("a first decoder crash is not retried")
            return
        }
        #expect(
            disposition(.unreadable(.decoderTimeout, "x"), attempt: 2, crashes: 2) == .final(.unreadable))
        #expect(
            disposition(.unreadable(.decoderCrash, "x"), attempt: 5, crashes: 1) == .final(.discarded))
        #expect(
            disposition(.unreadable(.decoderTimeout, "x"), attempt: 5, crashes: 2) == .final(.unreadable))
        #expect(policy.dispositionOfExpiredLease(attempt: 5, maxAttempts: 5) == .final(.discarded))
    }
}
