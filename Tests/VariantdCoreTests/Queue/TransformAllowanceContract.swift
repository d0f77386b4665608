import Foundation
import Testing
import Variants

@testable import VariantdCore

/// Accounts' monthly transform allowances on every available backend: counted once per transform and
/// month, refused past the allowance when overage is, and exact at the boundary when two processes race.
@Suite(.postgresServer) struct TransformAllowanceContract {
    private static func transform(_ name: String, month: String = "2026-11") -> CountedTransform {
        CountedTransform(account: "acme", month: month, bucket: "b", transform: "a.jpg?" + name)
    }

    @Test(arguments: QueueBackend.available)
    func countsEachTransformOnceAndRefusesPastTheAllowance(backend: QueueBackend) async throws {
        let (open, remove) = try backend.create()
        defer { remove() }
        let queue = try await open(QueueContract.fast)
        #expect(try await queue.account(named: "acme") == nil)
        #expect(try await queue.count(Self.transform("unlimited", month: "2026-10")) == .counted)
        try await queue.setAccount(Account(name: "acme", transformsPerMonth: 3, overage: .refused))
        #expect(try await queue.account(named: "acme")?.transformsPerMonth == 3)

        for name in ["one", "two", "three"] {
            #expect(try await queue.count(Self.transform(name)) == .counted)
        }
        #expect(try await queue.count(Self.transform("four")) == .refused)
        #expect(try await queue.count(Self.transform("one")) == .already, "asked again: free")
        #expect(
            try await queue.usage(account: "acme", month: "2026-11") == [
                TransformUsage(month: "2026-11", bucket: "b", transforms: 3)
            ])

        try await queue.setAccount(Account(name: "acme", transformsPerMonth: 3, overage: .allowed))
        #expect(try await queue.count(Self.transform("four")) == .counted)
        #expect(try await queue.usage(account: "acme", month: "2026-11").first?.transforms == 4)

        // A new month starts from nothing: the same transform counts again.
        try await queue.setAccount(Account(name: "acme", transformsPerMonth: 1, overage: .refused))
        #expect(try await queue.count(Self.transform("one", month: "2026-12")) == .counted)
        #expect(try await queue.count(Self.transform("two", month: "2026-12")) == .refused)
        #expect(
            try await queue.usage(account: "acme", month: nil).map(\.month) == [
                "2026-10", "2026-11", "2026-12",
            ])
    }

    /// Two processes' handles on one database, 50 new transforms at once against an allowance of 10.
    @Test(arguments: QueueBackend.available)
    func racingCountsNeverPassTheAllowance(backend: QueueBackend) async throws {
        let (open, remove) = try backend.create()
        defer { remove() }
        let first = try await open(QueueContract.fast)
        let second = try await open(QueueContract.fast)
        try await first.setAccount(Account(name: "acme", transformsPerMonth: 10, overage: .refused))
        let counts = try await withThrowingTaskGroup(of: TransformCount.self) { group in
            for index in 0..<50 {
                let queue = index.isMultiple(of: 2) ? first : second
                group.addTask { try await queue.count(Self.transform("race-\(index)")) }
            }
            return try await group.reduce(into: [TransformCount]()) { $0.append($1) }
        }
        #expect(counts.filter { $0 == .counted }.count == 10)
        #expect(counts.filter { $0 == .refused }.count == 40)
        #expect(try await first.usage(account: "acme", month: "2026-11").first?.transforms == 10)
    }
}
