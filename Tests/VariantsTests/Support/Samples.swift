import Foundation

/// The repository's own small files under `Samples/`, found from this file's path so the tests run from any
/// directory.
enum Samples {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // VariantsTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()
        .appendingPathComponent("Samples")

    static func bytes(_ relativePath: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: root.appendingPathComponent(relativePath)))
    }

    /// The bytes of `Samples/buckets/<name>`.
    static func bucket(_ name: String) throws -> Data {
        try Data(contentsOf: root.appendingPathComponent("buckets").appendingPathComponent(name))
    }
}
