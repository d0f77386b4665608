import Foundation
import Testing
import Variants

@testable import VariantdCore

extension JobQueue {
    /// The attempts of a job that left it final: exactly one for a job finished once.
    func finalAttempts(of id: Int64) async throws -> [JobAttempt] {
        try await attempts(of: id).filter { attempt in
            attempt.outcome.flatMap(JobState.init(rawValue:))?.isFinal == true
        }
    }
}

extension Job {
    /// Checks that each rendition the job reports is in the store at `root`, whole: same size and SHA-256.
    func checkRenditionsWhole(in root: String) throws {
        for (name, rendition) in metadata?.renditions ?? [:] {
            let bytes = try #require(
                FileManager.default.contents(atPath: "\(root)/\(rendition.key)"), "job \(id) \(name)")
            #expect(bytes.count == rendition.size, "job \(id) \(name): \(rendition.key)")
            #expect(SHA256.hex([UInt8](bytes)) == rendition.checksumSha256, "job \(id) \(name)")
        }
    }
}
