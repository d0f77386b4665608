import Foundation

/// The repository's own small pictures under `Samples/`, found from this file's location.
enum Samples {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Samples")

    static func bytes(_ relativePath: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: root.appendingPathComponent(relativePath)))
    }
}
