import Foundation
import Testing
import Variants

@testable import VariantdCore

/// The object index and the order of an object's jobs, on every available backend: what lets a storage
/// event be a hint to look at an object rather than a fact to apply.
@Suite(.postgresServer) struct ObjectIndexContract {
    static let first = String(repeating: "a", count: 64)
    static let second = String(repeating: "b", count: 64)

    @Test(arguments: QueueBackend.available)
    func bytesAreOrphanedOnlyWhenNoObjectHoldsThem(backend: QueueBackend) async throws {
        let (open, remove) = try backend.create()
        defer { remove() }
        let queue = try await open(QueueContract.fast)
        #expect(try await queue.record(bucket: "b", path: "one.jpg", checksum: Self.first) == nil)
        #expect(try await queue.record(bucket: "b", path: "copy.jpg", checksum: Self.first) == nil)
        #expect(
            try await queue.record(bucket: "b", path: "one.jpg", checksum: Self.first) == nil, "unchanged")
        #expect(
            try await queue.record(bucket: "b", path: "one.jpg", checksum: Self.second) == nil,
            "the old bytes are still held by copy.jpg")
        #expect(try await queue.forget(bucket: "b", path: "copy.jpg") == Self.first)
        #expect(try await queue.forget(bucket: "b", path: "copy.jpg") == nil, "forgotten already")
        #expect(try await queue.record(bucket: "b", path: "one.jpg", checksum: Self.first) == Self.second)
        #expect(try await queue.forget(bucket: "b", path: "one.jpg") == Self.first)
        #expect(try await queue.forget(bucket: "other", path: "one.jpg") == nil, "never recorded")
    }

    /// A second job of one object waits while the first is waiting or running, whatever its version; other
    /// objects' jobs are claimed beside it.
    @Test(arguments: QueueBackend.available)
    func anObjectsJobsAreClaimedOneAtATimeInOrder(backend: QueueBackend) async throws {
        let (open, remove) = try backend.create()
        defer { remove() }
        let queue = try await open(QueueContract.fast)
        let older = try await queue.enqueue(try QueueContract.job("same.jpg", version: "1")).id
        let newer = try await queue.enqueue(try QueueContract.job("same.jpg", version: "2")).id
        let other = try await queue.enqueue(try QueueContract.job("other.jpg", version: "1")).id

        let claimed = try await queue.claim(owner: "w", limit: 10, lease: .seconds(30))
        #expect(Set(claimed.map(\.job.id)) == [older, other])
        #expect(try await queue.claim(owner: "w", limit: 10, lease: .seconds(30)).isEmpty)

        let first = try #require(claimed.first { $0.job.id == older })
        _ = try await queue.finish(first.lease, with: .success(QueueContract.metadata))
        #expect(try await queue.claim(owner: "w", limit: 10, lease: .seconds(30)).map(\.job.id) == [newer])
    }
}
